import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type BackgroundShell,
  fencedBlocks,
  jsonValues,
  linesOf,
  PNPM,
  pnpmShimDir,
  readerEnv,
  requireCommands,
  runShell,
  type ShellRun,
  type Snippet,
  shellSnippets,
  startShell,
  substitute,
} from '../support/doc-snippets.ts';
import { freePort, ROOT, tempDir, waitForOk } from '../support/processes.ts';
import { type System, startSystem } from '../support/system.ts';

// Runs the shell commands of the README and of the documentation by reader as a reader pastes
// them, against real processes on free ports: the documented ports are replaced by those, and
// `pnpm` is the pinned pnpm through npx. Every shell block is in the table below, either with
// what its output must show or with why it cannot run on one machine, so a new block is either
// run or consciously excluded.

type Context = 'system' | 'upstream';
type Entry =
  | {
      file: string;
      firstLine: string;
      context: Context;
      check: (run: ShellRun) => void;
      exitCode?: number;
      /** Run with a fresh KEYGATE_DATA_DIR instead of the running system's. */
      ownDataDir?: boolean;
    }
  | { file: string; firstLine: string; context: 'upstream-start' }
  | { file: string; firstLine: string; excluded: string };

const README = 'README.md';
const INTEGRATORS = 'docs/integrators.md';
const CONFIGURATION = 'docs/configuration.md';
const OPERATIONS = 'docs/operations.md';
const UPSTREAM = 'docs/gateway-in-front-of-your-service.md';
const PLANS = 'docs/plans.md';
const FILES = [README, INTEGRATORS, CONFIGURATION, OPERATIONS, UPSTREAM, PLANS];
const TEST_COMMAND = `${PNPM} install && ${PNPM} test`;
const EXAMPLE_SERVER = 'docs/examples/express-upstream/server.ts';

const json = (run: ShellRun) => jsonValues(run.stdout) as Array<Record<string, unknown>>;

const ENTRIES: Entry[] = [
  {
    file: PLANS,
    firstLine:
      'ADMIN=$(pnpm keygate keys create --name sales-admin --env test --scopes auth:rw,article:r --json | jq -r .secret)',
    context: 'system',
    // The customer's two keys count down one day and one month quota: 999 left, then 998.
    check(run) {
      const lines = linesOf(run.stdout);
      assert.equal(lines.length, 2, run.stdout);
      assert.match(lines[0] ?? '', /"minute";r=99;t=\d+, "day";r=999;t=\d+, "month";r=9999;t=\d+/i);
      assert.match(lines[1] ?? '', /"minute";r=98;t=\d+, "day";r=998;t=\d+, "month";r=9998;t=\d+/i);
    },
  },
  {
    file: README,
    firstLine: `${PNPM} install && ${PNPM} start`,
    excluded:
      'runs until Ctrl-C on the fixed ports 8080-8082; tests/e2e/start.test.ts starts the same script on free ports',
  },
  {
    file: README,
    firstLine: TEST_COMMAND,
    excluded: 'the whole test suite, this test included; .ci/run runs it verbatim (checked below)',
  },
  {
    file: README,
    firstLine:
      'SECRET=$(pnpm keygate keys create --name first --env test --scopes article:r,order:rw --json | jq -r .secret)',
    context: 'system',
    check(run) {
      const products = json(run);
      assert.equal(products.length, 2, run.stdout);
      for (const product of products) {
        assert.match(String(product.sku), /^KG-\d+$/);
        assert.ok(Number.isInteger(product.gross) && (product.gross as number) > 0, run.stdout);
      }
    },
  },
  {
    file: README,
    firstLine: 'curl -s http://127.0.0.1:8080/v2/catalog/products | jq -r .detail',
    context: 'system',
    check: (run) => assert.match(run.stdout, /Authorization: Bearer/),
  },
  {
    file: README,
    firstLine:
      "printf '%s\\n' 'a long passphrase' | pnpm keygate admin create-user --email ops@example.com --password-stdin",
    context: 'system',
    check: (run) => assert.match(run.stdout, /^Created administrator adm_\w+ <ops@example\.com>$/m),
  },
  {
    file: INTEGRATORS,
    firstLine:
      'ADMIN=$(pnpm keygate keys create --name integration-admin --env test --scopes auth:rw,article:r --json | jq -r .secret)',
    context: 'system',
    check(run) {
      const [key] = json(run);
      assert.match(String(key?.id), /^key_/);
      assert.match(String(key?.prefix), /^kg_test_/);
      assert.deepEqual(key?.scopes, ['article:r']);
      assert.deepEqual(key?.rateLimit, { perMinute: 120 });
    },
  },
  {
    file: INTEGRATORS,
    firstLine:
      'ADMIN=$(pnpm keygate keys create --name rotation-admin --env test --scopes auth:rw,article:r --json | jq -r .secret)',
    context: 'system',
    // Both secrets work during the overlap; closing the old one ends the rotation and refuses it.
    check: (run) => assert.deepEqual(linesOf(run.stdout), ['200', '200', 'false', '401']),
  },
  {
    file: INTEGRATORS,
    firstLine:
      'SECRET=$(pnpm keygate keys create --name catalogue-only --env test --scopes article:r --json | jq -r .secret)',
    context: 'system',
    check: (run) =>
      assert.deepEqual(json(run), [{ status: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'stock:r' }]),
  },
  {
    file: INTEGRATORS,
    firstLine:
      'SECRET=$(pnpm keygate keys create --name retrying-shop --env test --scopes order:rw --json | jq -r .secret)',
    context: 'system',
    // The same POST twice under one Idempotency-Key: one cart, the second answer replayed.
    check(run) {
      const lines = linesOf(run.stdout);
      const locations = lines
        .filter((line) => /^location:/i.test(line))
        .map((line) => line.trim().toLowerCase());
      assert.equal(locations.length, 2, run.stdout);
      assert.match(locations[0] ?? '', /^location: \/v2\/carts\/crt_/);
      assert.equal(locations[1], locations[0]);
      const replayed = lines.filter((line) => /^idempotent-replayed:/i.test(line));
      assert.deepEqual(
        replayed.map((line) => line.trim().toLowerCase()),
        ['idempotent-replayed: true'],
      );
    },
  },
  {
    file: INTEGRATORS,
    firstLine:
      'SECRET=$(pnpm keygate keys create --name two-a-minute --env test --scopes article:r --rate-limit 2 --json | jq -r .secret)',
    context: 'system',
    check(run) {
      const lines = linesOf(run.stdout);
      assert.deepEqual(lines.slice(0, 3), ['200', '200', '429']);
      const headers = lines.slice(3).join('\n');
      assert.match(headers, /^RateLimit-Policy: "per-key";q=2;w=60$/im);
      assert.match(headers, /^RateLimit: "per-key";r=0;t=\d+$/im);
      assert.match(headers, /^Retry-After: \d+$/im);
    },
  },
  {
    file: INTEGRATORS,
    firstLine: "curl -s http://127.0.0.1:8080/v2/openapi.json | jq -r '.info.title, .info.version'",
    context: 'system',
    check(run) {
      const [title, version] = linesOf(run.stdout);
      assert.equal(title, 'keygate API');
      assert.match(String(version), /^2\.\d+\.\d+$/);
    },
  },
  {
    file: INTEGRATORS,
    firstLine: "curl -s http://127.0.0.1:8080/v1/channels | jq '{status, code, supportedVersions}'",
    context: 'system',
    check: (run) =>
      assert.deepEqual(json(run), [{ status: 404, code: 'UNKNOWN_API_VERSION', supportedVersions: ['v2'] }]),
  },
  {
    file: INTEGRATORS,
    firstLine:
      'HOOKS=$(pnpm keygate keys create --name hooks --env test --scopes webhook:rw --json | jq -r .secret)',
    context: 'system',
    check(run) {
      const types = linesOf(run.stdout);
      for (const type of ['order.created', 'stock.updated', 'customer.created', 'pricing.price.created']) {
        assert.ok(types.includes(type), `${type} missing from ${run.stdout}`);
      }
    },
  },
  {
    file: INTEGRATORS,
    firstLine:
      'curl -s -X POST http://127.0.0.1:8080/v2/webhooks/endpoints -H "Authorization: Bearer $HOOKS" \\',
    excluded:
      'the endpoint URL must resolve to a public address (private ones are refused by default), and a test ' +
      'must not depend on DNS or the internet; tests/e2e/webhooks.test.ts subscribes a local receiver with ' +
      'KEYGATE_WEBHOOKS_ALLOW_PRIVATE=true',
  },
  {
    file: CONFIGURATION,
    firstLine: 'GATEWAY_PORT=eighty LOG_LEVEL=loud node gateway/src/main.ts',
    context: 'system',
    exitCode: 1,
    check(run) {
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^config error: GATEWAY_PORT: [^\n]+; LOG_LEVEL: [^\n]+\n$/);
    },
  },
  {
    file: OPERATIONS,
    firstLine: 'ID=$(pnpm keygate keys create --name agency --env live --scopes article:r,order:rw \\',
    context: 'system',
    check(run) {
      const lines = linesOf(run.stdout);
      assert.match(
        lines.find((line) => /\bagency\b/.test(line)) ?? '',
        /\blive\s+active\s+article:r,order:rw\s+2030-03-31\b/,
      );
      assert.ok(
        lines.some((line) => /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(line)),
        `rotate prints when the old secret closes:\n${run.stdout}`,
      );
      assert.ok(
        lines.some((line) => /^Closed the old secret of key_\w+\.$/.test(line)),
        run.stdout,
      );
      assert.equal(lines.at(-1), 'revoked');
    },
  },
  {
    file: OPERATIONS,
    firstLine: 'pnpm --filter @keygate/commerce seed -- --env live --products 10000 --reset',
    context: 'system',
    // Into a data directory of its own: the page says to stop the commerce process it reseeds.
    ownDataDir: true,
    check(run) {
      const [seeded] = json(run);
      assert.equal(seeded?.environment, 'live', run.stdout);
      assert.equal(seeded?.products, 10_000);
    },
  },
  {
    file: OPERATIONS,
    firstLine:
      'export REDIS_URL=redis://127.0.0.1:6379 KEYGATE_IDENTITY_PRIVATE_JWK="$(node deploy/generate-identity-key.ts)"',
    excluded:
      'needs a Redis on 6379 and leaves two gateways running on fixed ports; tests/e2e/scale-out.test.ts runs ' +
      'several gateways on one Redis on free ports',
  },
  {
    file: OPERATIONS,
    firstLine: 'echo "KEYGATE_IDENTITY_PRIVATE_JWK=$(node deploy/generate-identity-key.ts)" >> .env',
    excluded:
      'needs a Docker engine and writes .env; tests/e2e/compose.test.ts validates docker-compose.yml with docker-compose config',
  },
  {
    file: OPERATIONS,
    firstLine: 'OTEL_EXPORTER_OTLP_ENDPOINT=http://jaeger:4318 docker compose --profile tracing up -d',
    excluded:
      'needs a Docker engine; tests/e2e/compose.test.ts validates the tracing profile with docker-compose config ' +
      'and tests/e2e/tracing.test.ts follows such a call through a real OTLP receiver',
  },
  {
    file: OPERATIONS,
    firstLine: 'curl -s http://127.0.0.1:8080/readyz | jq .',
    context: 'system',
    check(run) {
      const [ready, live] = json(run);
      assert.equal(ready?.status, 'ready', run.stdout);
      assert.deepEqual(live, { status: 'ready', environment: 'live' });
      for (const metric of [
        'keygate_requests_total',
        'keygate_auth_failures_total',
        'keygate_rate_limited_total',
      ]) {
        assert.match(run.stdout, new RegExp(`^# HELP ${metric} `, 'm'));
      }
    },
  },
  {
    file: OPERATIONS,
    firstLine: 'promtool check rules deploy/monitoring/keygate-rules.yaml',
    // Needs no running service; tests/e2e/monitoring-rules.test.ts holds the rules to more.
    context: 'system',
    check(run) {
      assert.match(run.stdout, /SUCCESS: \d+ rules found/, run.stdout + run.stderr);
      assert.match(run.stdout, /Unit Testing: {2}deploy\/monitoring\/keygate-rules\.test\.yaml\n {2}SUCCESS/);
    },
  },
  {
    file: UPSTREAM,
    firstLine: 'SERVICE_ENV=test PORT=4001 KEYGATE_JWKS_URL=http://127.0.0.1:8080/.well-known/jwks.json \\',
    context: 'upstream-start',
  },
  {
    file: UPSTREAM,
    firstLine:
      'SECRET=$(pnpm keygate keys create --name reports --env test --scopes order:r --json | jq -r .secret)',
    context: 'upstream',
    check: (run) =>
      assert.deepEqual(json(run), [
        { environment: 'test', scopes: ['order:r'] },
        { status: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'order:r' },
        { status: 401, code: 'IDENTITY_MISSING' },
      ]),
  },
];

/** The snippet an entry names; the inventory test below proves there is exactly one. */
function snippetOf(entry: Entry): Snippet {
  const snippet = shellSnippets(entry.file).find((s) => s.firstLine === entry.firstLine);
  assert.ok(snippet, `${entry.file} has no shell block starting ${entry.firstLine}`);
  return snippet;
}

function runnable(context: Context) {
  return ENTRIES.filter(
    (entry): entry is Extract<Entry, { check: unknown }> => 'check' in entry && entry.context === context,
  );
}

async function runEntry(
  entry: Extract<Entry, { check: unknown }>,
  ports: Array<[string, string]>,
  env: NodeJS.ProcessEnv,
) {
  const dataDir = entry.ownDataDir ? tempDir('keygate-docs-data-') : null;
  const run = await runShell(
    substitute(snippetOf(entry).text, ports),
    dataDir ? { ...env, KEYGATE_DATA_DIR: dataDir.path } : env,
  ).finally(() => dataDir?.remove());
  const shown = `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  assert.equal(run.code, entry.exitCode ?? 0, shown);
  try {
    entry.check(run);
  } catch (error) {
    (error as Error).message += `\n${shown}`;
    throw error;
  }
}

describe('the documentation', () => {
  before(() => requireCommands('bash', 'curl', 'jq'));

  it('lists every shell block of the README and the docs, each run below or excluded with a reason', () => {
    for (const file of FILES) {
      const found = shellSnippets(file).map((s) => s.firstLine);
      const listed = ENTRIES.filter((entry) => entry.file === file).map((entry) => entry.firstLine);
      assert.equal(new Set(found).size, found.length, `${file}: two shell blocks start alike`);
      assert.deepEqual(
        [...found].sort(),
        [...listed].sort(),
        `${file}: shell blocks and the test's table differ`,
      );
    }
  });

  it('gives the test command .ci/run runs, verbatim', () => {
    assert.ok(shellSnippets(README).some((s) => s.text === `${TEST_COMMAND}\n`));
    const ci = linesOf(readFileSync(resolve(ROOT, '.ci/run'), 'utf8'));
    assert.equal(ci.at(-1), TEST_COMMAND);
  });

  it('quotes the example service as it is in docs/examples', () => {
    const [quoted] = fencedBlocks(UPSTREAM, ['ts']);
    assert.equal(quoted?.text, readFileSync(resolve(ROOT, EXAMPLE_SERVER), 'utf8'));
  });

  it('names every variable the services read, and only variables that exist', () => {
    const schemaVariables = ['gateway/src/config.ts', 'commerce/src/config.ts'].flatMap((file) => {
      const source = readFileSync(resolve(ROOT, file), 'utf8');
      const schema = source.slice(source.indexOf('const EnvSchema = z.object({'));
      return [...schema.slice(0, schema.indexOf('\n});')).matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map(
        (m) => m[1],
      );
    });
    assert.ok(schemaVariables.length > 40, 'the config schemas were found');
    const doc = readFileSync(resolve(ROOT, CONFIGURATION), 'utf8');
    const documented = [...doc.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) =>
      [...(m[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((v) => v[1] as string),
    );
    for (const name of schemaVariables)
      assert.ok(documented.includes(name as string), `${name} is not documented`);
    const sources = [
      ...['gateway/src', 'commerce/src', 'packages/tracing/src', 'scripts'].flatMap((dir) =>
        (readdirSync(resolve(ROOT, dir), { recursive: true }) as string[])
          .filter((file) => file.endsWith('.ts'))
          .map((file) => readFileSync(join(ROOT, dir, file), 'utf8')),
      ),
      readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8'),
    ].join('\n');
    for (const name of documented)
      assert.ok(sources.includes(name), `${name} is documented but read nowhere`);
  });

  describe('against gateway, commerce live and commerce test on free ports', () => {
    let system: System;
    let env: NodeJS.ProcessEnv;
    let ports: Array<[string, string]>;
    const shims = tempDir('keygate-docs-');

    before(async function () {
      this.timeout(120_000);
      system = await startSystem();
      env = readerEnv(pnpmShimDir(shims.path), system.env);
      const portOf = (url: string) => new URL(url).host;
      ports = [
        ['127.0.0.1:8080', portOf(system.gateway.url)],
        ['127.0.0.1:8081', portOf(system.live.url)],
        ['127.0.0.1:8082', portOf(system.test.url)],
      ];
    });
    after(async () => {
      await system?.stop();
      shims.remove();
    });

    it('`pnpm keygate … --json` prints nothing but the JSON', async function () {
      this.timeout(120_000);
      const run = await runShell('pnpm keygate keys list --json', env);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(Array.isArray(JSON.parse(run.stdout)), run.stdout);
    });

    for (const entry of runnable('system')) {
      it(`${entry.file}: ${entry.firstLine}`, async function () {
        this.timeout(120_000);
        await runEntry(entry, ports, env);
      });
    }
  });

  describe('the example service behind a gateway with its own route table', () => {
    const dir = tempDir('keygate-docs-upstream-');
    let env: NodeJS.ProcessEnv;
    let ports: Array<[string, string]>;
    let started: BackgroundShell | undefined;

    before(async function () {
      this.timeout(120_000);
      const [gatewayPort, testPort, livePort] = [await freePort(), await freePort(), await freePort()];
      ports = [
        ['127.0.0.1:8080', `127.0.0.1:${gatewayPort}`],
        ['127.0.0.1:4001', `127.0.0.1:${testPort}`],
        ['PORT=4001', `PORT=${testPort}`],
        ['127.0.0.1:4000', `127.0.0.1:${livePort}`],
        ['reports-routes.json', join(dir.path, 'reports-routes.json')],
      ];
      // The route table as the page shows it, saved where the page says.
      const [routes] = fencedBlocks(UPSTREAM, ['json']);
      assert.ok(routes, `${UPSTREAM} shows no route table`);
      writeFileSync(join(dir.path, 'reports-routes.json'), substitute(routes.text, ports));
      env = readerEnv(pnpmShimDir(dir.path), {
        KEYGATE_DATA_DIR: join(dir.path, 'data'),
        GATEWAY_PORT: String(gatewayPort),
        LOG_LEVEL: 'warn',
      });
      const start = ENTRIES.find((entry) => 'context' in entry && entry.context === 'upstream-start');
      assert.ok(start);
      started = startShell(substitute(snippetOf(start).text, ports), env);
      const failed = () => assert.fail(`the service or the gateway did not start:\n${started?.output()}`);
      await waitForOk(`http://127.0.0.1:${gatewayPort}/healthz`, 60_000).catch(failed);
      // The service answers 401 to a request without an assertion: it is up.
      await waitForAnswer(`http://127.0.0.1:${testPort}/v2/reports/sales`, 30_000).catch(failed);
    });
    after(async () => {
      await started?.stop();
      dir.remove();
    });

    for (const entry of runnable('upstream')) {
      it(`${entry.file}: ${entry.firstLine}`, async function () {
        this.timeout(120_000);
        await runEntry(entry, ports, env);
      });
    }
  });
});

/** Polls `url` until it answers at all (any status). */
async function waitForAnswer(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await (await fetch(url)).body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
