import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, posix } from 'node:path';
import { createIdentitySigner, generateIdentityKeyPair } from '@keygate/identity';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import ts from 'typescript';
import { type CliInstall, printedSecret, startCli } from '../support/cli.ts';
import {
  mustRun,
  type PackedPackage,
  PUBLISHED_PACKAGES,
  type PublishedName,
  packPackages,
  runCommand,
  userShellEnv,
  workspaceRange,
} from '../support/packages.ts';
import { freePort, ROOT, type Service, startService, tempDir } from '../support/processes.ts';
import { type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';

const FIXTURES = join(ROOT, 'tests/fixtures/package-consumer');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const ATTW = join(ROOT, 'tests/node_modules/.bin/attw');

/** The package a bare specifier names: `jose`, `@keygate/problem` (subpaths dropped). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** Every module specifier a packed JavaScript or declaration file imports, exports or references. */
function specifiersOf(pkg: PackedPackage, file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(pkg.dir, file), 'utf8'), true, true);
  return [...info.importedFiles, ...info.referencedFiles].map((ref) => ref.fileName);
}

const isRelative = (specifier: string) => specifier.startsWith('./') || specifier.startsWith('../');

describe('the published npm packages, packed and installed outside the workspace', function () {
  this.timeout(300_000);
  let work: ReturnType<typeof tempDir>;
  let project: string;
  let packed: Map<PublishedName, PackedPackage>;

  before(async () => {
    work = tempDir('keygate-packages-');
    project = join(work.path, 'consumer');
    // Packing builds each package (its prepack), so this is the build, too.
    packed = await packPackages(work.path);
    const tarballs = Object.fromEntries([...packed.values()].map((pkg) => [pkg.name, `file:${pkg.tarball}`]));
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify(
        {
          name: 'keygate-consumer',
          private: true,
          type: 'module',
          dependencies: { ...tarballs, express: workspaceRange('packages/identity/package.json', 'express') },
          devDependencies: {
            '@types/express': workspaceRange('packages/identity/package.json', '@types/express'),
            '@types/node': workspaceRange('package.json', '@types/node'),
          },
        },
        null,
        2,
      ),
    );
    for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(project, file));
    await mustRun('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: project,
      outsideWorkspace: true,
    });
  });

  after(() => work?.remove());

  it('installs every package from its tarball, not a workspace link nor the registry', () => {
    assert.ok(!realpathSync(project).startsWith(ROOT), 'the consumer project is outside the workspace');
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string; link?: boolean; version?: string }>;
    };
    const keygate = Object.entries(lock.packages).filter(([path]) => path.includes('node_modules/@keygate/'));
    assert.deepEqual(
      keygate.map(([path]) => path).sort(),
      PUBLISHED_PACKAGES.map(({ name }) => `node_modules/${name}`).sort(),
      'exactly the published packages, once each (identity found the packed problem package)',
    );
    for (const [path, entry] of keygate) {
      assert.equal(entry.link, undefined, `${path} is not a link`);
      assert.ok(
        entry.resolved?.startsWith('file:') && entry.resolved.endsWith('.tgz'),
        `${path}: ${entry.resolved}`,
      );
      assert.ok(
        realpathSync(join(project, path)).startsWith(realpathSync(project)),
        `${path} is a real folder`,
      );
    }
  });

  for (const { name } of PUBLISHED_PACKAGES) {
    describe(name, () => {
      const pkg = () => packed.get(name) as PackedPackage;

      it('has a publishable manifest: ESM exports with types, files, engines, MIT, not private', () => {
        const { manifest } = pkg();
        assert.equal(manifest.private, undefined);
        assert.equal(manifest.type, 'module');
        assert.equal(manifest.license, 'MIT');
        assert.match(String((manifest.engines as { node?: string } | undefined)?.node), /^>=\d+/);
        assert.deepEqual(manifest.exports, {
          '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' },
          './package.json': './package.json',
        });
        assert.ok(Array.isArray(manifest.files));
        assert.doesNotMatch(
          JSON.stringify(manifest),
          /workspace:|\.\/src\//,
          'no workspace range or source entry',
        );
      });

      it('ships built ESM with declarations, source maps, README and LICENSE, and no tests', () => {
        const { files } = pkg();
        for (const file of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts']) {
          assert.ok(files.includes(file), `${name} ships ${file}`);
        }
        const built = files.filter((file) => file.startsWith('dist/') && file.endsWith('.js'));
        assert.ok(built.length > 0);
        for (const file of built) {
          assert.ok(files.includes(`${file}.map`), `${file} has a source map`);
          assert.ok(files.includes(file.replace(/\.js$/, '.d.ts')), `${file} has declarations`);
        }
        // Source maps and declaration maps lead to the TypeScript source, shipped in src/.
        for (const map of files.filter((file) => file.endsWith('.map'))) {
          const { sources } = JSON.parse(readFileSync(join(pkg().dir, map), 'utf8')) as { sources: string[] };
          for (const source of sources) {
            const target = posix.join(posix.dirname(map), source);
            assert.ok(target.startsWith('src/') && files.includes(target), `${map} → ${source} is shipped`);
          }
        }
        assert.deepEqual(
          files.filter((file) => /(^|\/)test\/|\.test\.|tsconfig|\.tsbuildinfo/.test(file)),
          [],
        );
        assert.match(readFileSync(join(pkg().dir, 'LICENSE'), 'utf8'), /^MIT License/);
      });

      it('shows the install line a user types in its README', () => {
        // A package with a command is installed globally; a library into the user's project.
        const line = pkg().manifest.bin ? `npm install -g ${name}` : `npm install ${name}`;
        assert.ok(
          readFileSync(join(pkg().dir, 'README.md'), 'utf8').includes(`${line}\n`),
          `README.md shows \`${line}\``,
        );
      });

      it('resolves every relative import of dist/ to a file it ships (no .ts specifier left)', () => {
        const { files } = pkg();
        const missing: string[] = [];
        for (const file of files.filter((f) => f.startsWith('dist/') && /\.(js|d\.ts)$/.test(f))) {
          for (const specifier of specifiersOf(pkg(), file).filter(isRelative)) {
            let target = posix.join(posix.dirname(file), specifier);
            if (file.endsWith('.d.ts')) target = target.replace(/\.js$/, '.d.ts');
            if (!specifier.endsWith('.js') || !files.includes(target)) missing.push(`${file} → ${specifier}`);
          }
        }
        assert.deepEqual(missing, []);
      });

      it('declares exactly the packages its code and declarations import, nothing from the applications', () => {
        const { files, manifest } = pkg();
        const imported = new Set<string>();
        for (const file of files.filter((f) => f.startsWith('dist/') && /\.(js|d\.ts)$/.test(f))) {
          for (const specifier of specifiersOf(pkg(), file)) {
            if (!isRelative(specifier) && !isBuiltin(specifier)) imported.add(packageOf(specifier));
          }
        }
        const declared = manifest.dependencies ?? {};
        assert.deepEqual([...imported].sort(), Object.keys(declared).sort());
        for (const [dependency, range] of Object.entries(declared)) {
          if (!dependency.startsWith('@keygate/')) continue;
          const own = packed.get(dependency as PublishedName);
          assert.ok(own, `${dependency} is itself published, never an application`);
          assert.equal(range, own.manifest.version, `${dependency} pinned to the version packed with it`);
        }
      });

      it('passes publint with no message, not even a suggestion', async () => {
        const tarball = readFileSync(pkg().tarball);
        const { messages, pkg: manifest } = await publint({
          pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.length) },
          level: 'suggestion',
          strict: true,
        });
        assert.deepEqual(
          messages.map((message) => `${message.type}: ${formatMessage(message, manifest, { color: false })}`),
          [],
        );
      });

      it('passes Are The Types Wrong under node10, node16 and bundler resolution', async () => {
        // ESM only by design. attw's node16-from-CJS check predates require() of ESM, which Node >= 22.12
        // does (the CommonJS test below), so that one rule is ignored; node10 and bundler stay checked.
        const result = await runCommand(
          ATTW,
          [pkg().tarball, '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'table-flipped', '--no-color'],
          { cwd: ROOT },
        );
        assert.equal(result.code, 0, result.output);
        assert.match(result.output, /No problems found/);
      });
    });
  }

  describe('@keygate/cli, the command', () => {
    it('installs `keygate-cli` as the built JavaScript with a Node shebang, never the TypeScript source', () => {
      const cli = packed.get('@keygate/cli') as PackedPackage;
      // pnpm pack takes `bin` from publishConfig as it does `exports`: the workspace keeps src/main.ts.
      assert.deepEqual(cli.manifest.bin, { 'keygate-cli': './dist/main.js' });
      assert.match(readFileSync(join(cli.dir, 'dist/main.js'), 'utf8'), /^#!\/usr\/bin\/env node\n/);
      const installed = realpathSync(join(project, 'node_modules/.bin/keygate-cli'));
      assert.equal(installed, realpathSync(join(project, 'node_modules/@keygate/cli/dist/main.js')));
    });

    it('shows the npx line in its README', () => {
      const readme = readFileSync(
        join((packed.get('@keygate/cli') as PackedPackage).dir, 'README.md'),
        'utf8',
      );
      assert.ok(readme.includes('npx @keygate/cli listen --forward-to '));
    });

    it('runs through npx outside the workspace and refuses a live key before any call', async () => {
      const help = await runCommand('npx', ['--no', '@keygate/cli', 'help'], {
        cwd: project,
        outsideWorkspace: true,
      });
      assert.equal(help.code, 0, help.output);
      assert.match(help.output, /^Usage: keygate-cli <command>/);
      const live = await runCommand('npx', ['--no', '@keygate/cli', 'trigger', 'order.created'], {
        cwd: project,
        outsideWorkspace: true,
        // Nothing listens on port 9: had it called out, the error would be a connection refused.
        env: { KEYGATE_API_KEY: 'kg_live_x', KEYGATE_BASE_URL: 'http://127.0.0.1:9' },
      });
      assert.equal(live.code, 2, live.output);
      assert.match(live.output, /test keys only/);
    });
  });

  it('loads in a CommonJS script too, through require() of ESM', async () => {
    const result = await runCommand(process.execPath, [join(project, 'require-all.cjs')], {
      cwd: project,
      outsideWorkspace: true,
    });
    assert.equal(result.code, 0, result.output);
    assert.deepEqual(JSON.parse(result.output), {
      cli: 'function',
      client: 'function',
      identity: 'function',
      problem: 'https://keygate.dev/problems/note-not-found',
      webhooks: 'function',
    });
  });

  describe('type-checked in the consumer project', () => {
    for (const resolution of ['nodenext', 'bundler'] as const) {
      it(`compiles a consumer under moduleResolution ${resolution}, and refuses wrong calls`, async () => {
        const config = join(project, `tsconfig.${resolution}.json`);
        writeFileSync(
          config,
          JSON.stringify({
            compilerOptions: {
              module: resolution === 'nodenext' ? 'nodenext' : 'preserve',
              moduleResolution: resolution,
              target: 'es2024',
              lib: resolution === 'nodenext' ? ['es2024'] : ['es2024', 'dom'],
              types: ['node'],
              strict: true,
              noEmit: true,
              skipLibCheck: false,
            },
            files: ['consumer.ts'],
          }),
        );
        const result = await runCommand(process.execPath, [TSC, '-p', config], {
          cwd: project,
          outsideWorkspace: true,
        });
        assert.equal(result.code, 0, result.output);
      });
    }
  });

  describe('against the running gateway and commerce', () => {
    let system: System;
    let notesPort: number;
    const services: Service[] = [];

    before(async () => {
      notesPort = await freePort();
      // The gateway in front of the team's own service: commerce's routes plus one of the notes service.
      const routes = JSON.parse(readFileSync(join(ROOT, 'gateway/routes.json'), 'utf8'));
      routes.upstreams.notes = { audience: 'notes', test: `http://127.0.0.1:${notesPort}` };
      routes.routes.push({ method: 'GET', path: '/v2/notes/{id}', scope: 'customer:r', upstream: 'notes' });
      const routesFile = join(work.path, 'routes.json');
      writeFileSync(routesFile, JSON.stringify(routes));
      system = await startSystem({
        gatewayEnv: { KEYGATE_ROUTES_FILE: routesFile },
        commerceEnv: { KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true', COMMERCE_WEBHOOK_POLL_MS: '100' },
      });
    });

    after(async () => {
      await Promise.all(services.map((service) => service.stop()));
      await system?.stop();
    });

    const startConsumer = async (script: string, port: number, env: Record<string, string>) => {
      const service = await startService({
        name: script,
        script: join(project, script),
        port,
        env: { ...env, PORT: String(port) },
      });
      services.push(service);
      return service;
    };

    it('runs a plain Node ESM script that reads the catalogue and a typed 403 problem', async () => {
      const key = await system.createKey({ name: 'reader', env: 'test', scopes: ['article:r'] });
      const result = await runCommand(process.execPath, [join(project, 'read-catalogue.mjs')], {
        cwd: project,
        outsideWorkspace: true,
        env: { KEYGATE_URL: system.gateway.url, KEYGATE_API_KEY: key.secret },
      });
      assert.equal(result.code, 0, result.output);
      const report = JSON.parse(result.output) as {
        products: Array<{ sku: string; currency: string }>;
        stock: { status: number; data: unknown; error: Record<string, unknown> };
        thrown: { code: string; status: number };
        rateLimit: { limit: number; remaining: number } | null;
      };
      assert.equal(report.products.length, 3);
      assert.ok(report.products.every((product) => product.sku && product.currency === 'EUR'));
      assert.equal(report.stock.status, 403);
      assert.equal(report.stock.data, null);
      assert.equal(report.stock.error.code, 'INSUFFICIENT_SCOPE');
      assert.equal(report.stock.error.requiredScope, 'stock:r');
      assert.equal(report.stock.error.type, 'https://keygate.dev/problems/insufficient-scope');
      assert.deepEqual(report.thrown, { code: 'INSUFFICIENT_SCOPE', status: 403 });
      assert.ok(report.rateLimit && report.rateLimit.remaining < report.rateLimit.limit);
    });

    describe('an Express service mounting @keygate/identity behind the gateway', () => {
      let notes: Service;
      let key: { id: string; secret: string };

      before(async () => {
        notes = await startConsumer('notes-service.mjs', notesPort, {
          KEYGATE_JWKS_URL: `${system.gateway.url}/.well-known/jwks.json`,
        });
        key = await system.createKey({ name: 'notes-reader', env: 'test', scopes: ['customer:r'] });
      });

      it('answers a request that came through the gateway, with the caller it verified', async () => {
        const res = await system.call(key.secret, '/v2/notes/n1');
        assert.equal(res.status, 200, await res.clone().text());
        assert.deepEqual(await res.json(), { id: 'n1', keyId: key.id, scopes: ['customer:r'] });
      });

      it('refuses a request sent to it directly, with or without a forged assertion', async () => {
        const direct = await fetch(`${notes.url}/v2/notes/n1`, {
          headers: { 'X-Keygate-Key-Id': key.id, 'X-Keygate-Environment': 'test' },
        });
        assert.equal(direct.status, 401);
        assert.equal(direct.headers.get('content-type'), 'application/problem+json');
        assert.equal(((await direct.json()) as { code: string }).code, 'IDENTITY_MISSING');

        const { privateJwk } = await generateIdentityKeyPair();
        const forger = await createIdentitySigner({ privateJwk: { ...privateJwk, kid: 'forged' } });
        const forged = await forger.sign(
          {
            keyId: key.id,
            environment: 'test',
            scopes: ['customer:r'],
            secretId: 'sec_forged',
            method: 'GET',
            path: '/v2/notes/n1',
            requestId: 'req_forged',
          },
          'notes',
        );
        const withForged = await fetch(`${notes.url}/v2/notes/n1`, {
          headers: { 'X-Keygate-Identity': forged },
        });
        assert.equal(withForged.status, 401);
        assert.equal(((await withForged.json()) as { code: string }).code, 'IDENTITY_INVALID');
      });

      it('is reached only with the scope its route needs', async () => {
        const other = await system.createKey({ name: 'catalogue-only', env: 'test', scopes: ['article:r'] });
        const res = await system.call(other.secret, '/v2/notes/n1');
        assert.equal(res.status, 403);
        assert.equal(((await res.json()) as { requiredScope: string }).requiredScope, 'customer:r');
      });
    });

    describe('the installed keygate-cli', () => {
      let installed: CliInstall;
      let key: { id: string; secret: string };

      before(async () => {
        installed = {
          command: join(project, 'node_modules/.bin/keygate-cli'),
          args: [],
          cwd: project,
          env: userShellEnv(),
        };
        key = await system.createKey({ name: 'cli', env: 'test', scopes: ['webhook:rw'] });
      });

      const triggerWithCli = async (type: string) => {
        const result = await runCommand('npx', ['--no', '@keygate/cli', 'trigger', type], {
          cwd: project,
          outsideWorkspace: true,
          env: { KEYGATE_API_KEY: key.secret, KEYGATE_BASE_URL: system.gateway.url },
        });
        assert.equal(result.code, 0, result.output);
        const printed = new RegExp(`^Triggered ${type.replace('.', '\\.')}: (evt_\\S+)\n$`).exec(
          result.output,
        );
        assert.ok(printed, result.output);
        return printed[1] as string;
      };

      it('npx @keygate/cli trigger stock.updated succeeds with a test key, and shows a refusal of the API', async () => {
        // That the event is real, the listener below shows: it forwards one the CLI triggered.
        assert.match(await triggerWithCli('stock.updated'), /^evt_/);
        const unknown = await runCommand('npx', ['--no', '@keygate/cli', 'trigger', 'stock.exploded'], {
          cwd: project,
          outsideWorkspace: true,
          env: { KEYGATE_API_KEY: key.secret, KEYGATE_BASE_URL: system.gateway.url },
        });
        assert.equal(unknown.code, 2, unknown.output);
        assert.match(unknown.output, /trigger refused: 422 UNKNOWN_EVENT_TYPE/);
      });

      it('keygate-cli listen forwards a triggered event that @keygate/webhooks verifies with the printed whsec_', async () => {
        const receiverPort = await freePort();
        const env = { KEYGATE_API_KEY: key.secret, KEYGATE_BASE_URL: system.gateway.url };
        const forwardTo = `http://127.0.0.1:${receiverPort}/hooks`;
        const listener = startCli(
          ['listen', '--forward-to', forwardTo, '--events', 'stock.updated'],
          env,
          installed,
        );
        try {
          await waitUntil('the CLI printed its secret', () => printedSecret(listener) !== undefined, {
            timeoutMs: 30_000,
          });
          const receiver = await startConsumer('webhook-receiver.mjs', receiverPort, {
            WEBHOOK_SECRET: printedSecret(listener) as string,
          });
          // One JSON line per request the receiver got: verified, or the reason it was refused.
          const deliveries = () =>
            receiver
              .output()
              .trim()
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line) as { verified: boolean; id: string; type: string });
          // The stream is open once an event triggered through the API reaches the receiver.
          await waitUntil('the stream is open', async () => {
            const res = await system.call(key.secret, '/v2/webhooks/events:trigger', {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ type: 'stock.updated' }),
            });
            assert.equal(res.status, 200, await res.clone().text());
            const { eventId } = (await res.json()) as { eventId: string };
            await new Promise((resolve) => setTimeout(resolve, 300));
            return deliveries().some((delivery) => delivery.verified && delivery.id === eventId);
          });

          const eventId = await triggerWithCli('stock.updated');
          await waitUntil('the receiver verified the triggered event', () =>
            deliveries().some((delivery) => delivery.verified && delivery.id === eventId),
          );
          for (const delivery of deliveries()) {
            assert.deepEqual(
              { verified: delivery.verified, type: delivery.type },
              { verified: true, type: 'stock.updated' },
            );
          }
          // The receiver logs a delivery before the listener has its answer and prints the line.
          const forwarded = new RegExp(`stock\\.updated {2}${eventId} {2}-> 204 \\(\\d+ ms\\)`);
          await waitUntil('the listener printed the forwarded event', () =>
            forwarded.test(listener.stdout()),
          );
          // Ctrl-C: the listener closes its stream and exits 0.
          listener.child.kill('SIGINT');
          assert.equal(await listener.exited, 0, listener.stderr());
        } finally {
          listener.child.kill('SIGTERM');
        }
      });
    });

    it('verifies a real webhook delivery from commerce with @keygate/webhooks', async () => {
      const receiverPort = await freePort();
      const key = await system.createKey({ name: 'hooks', env: 'test', scopes: ['webhook:rw', 'stock:rw'] });
      const created = await system.call(key.secret, '/v2/webhooks/endpoints', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          url: `http://127.0.0.1:${receiverPort}/hooks`,
          eventTypes: ['stock.updated'],
        }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      const { secret } = (await created.json()) as { secret: string };
      const receiver = await startConsumer('webhook-receiver.mjs', receiverPort, { WEBHOOK_SECRET: secret });

      const put = await system.call(key.secret, '/v2/stock/KG-00001', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ onHand: 17 }),
      });
      assert.equal(put.status, 200, await put.clone().text());
      await waitUntil('the receiver verified a delivery', () => receiver.output().includes('"verified"'));
      const lines = receiver.output().trim().split('\n');
      assert.equal(lines.length, 1, receiver.output());
      const delivery = JSON.parse(lines[0] as string) as {
        verified: boolean;
        id: string;
        type: string;
        data: { new: { onHand: number } };
      };
      assert.equal(delivery.verified, true);
      assert.equal(delivery.type, 'stock.updated');
      assert.match(delivery.id, /^msg_/, 'the webhook-id');
      assert.equal(delivery.data.new.onHand, 17);

      const tampered = await fetch(`${receiver.url}/hooks`, {
        method: 'POST',
        headers: {
          'webhook-id': delivery.id,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
        },
        body: JSON.stringify({ type: 'stock.updated' }),
      });
      assert.equal(tampered.status, 400);
      assert.equal(await tampered.text(), 'NO_MATCHING_SIGNATURE');
    });
  });
});
