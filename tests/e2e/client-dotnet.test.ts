import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { CLIENT_DOTNET_DIR, csharpBlocks, dotnet, readZip, requireDotnet } from '../support/dotnet.ts';
import { startDroppingProxy } from '../support/dropping-proxy.ts';
import { ROOT, runNode, tempDir } from '../support/processes.ts';
import { type System, startSystem } from '../support/system.ts';

/** Every resource scope, so the .NET tests can make keys of their own through the API (never `auth:rw`). */
/** The catalogue the pagination tests walk: the test environment seeded with this many regular products. */
const SEEDED_PRODUCTS = 10_000;

const ADMIN_SCOPES = [
  'auth:rw',
  'article:r',
  'order:rw',
  'stock:rw',
  'webhook:rw',
  'customer:rw',
  'pricing:rw',
];

describe('the .NET client against the running system', function () {
  // Restoring, building and packing the .NET projects takes minutes on a busy 2-core machine.
  this.timeout(600_000);
  let system: System;
  let commerceData: { path: string; remove: () => void };
  let admin: { id: string; secret: string };
  let limited: { id: string; secret: string };

  before(async () => {
    requireDotnet();
    // Commerce gets a data directory of its own whose test database is seeded large before it starts.
    commerceData = tempDir('keygate-dotnet-commerce-');
    const seeded = await runNode(
      'commerce/src/seed-cli.ts',
      [
        '--env',
        'test',
        '--products',
        String(SEEDED_PRODUCTS),
        '--db',
        join(commerceData.path, 'commerce-test.db'),
      ],
      {},
    );
    assert.equal(seeded.code, 0, seeded.stderr);
    system = await startSystem({
      commerceEnv: {
        KEYGATE_DATA_DIR: commerceData.path,
        KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true',
        COMMERCE_WEBHOOK_POLL_MS: '100',
      },
    });
    admin = await system.createKey({ name: 'dotnet-admin', env: 'test', scopes: ADMIN_SCOPES });
    limited = await system.createKey({
      name: 'dotnet-limited',
      env: 'test',
      scopes: ['article:r', 'order:rw'],
      extra: ['--rate-limit', '1'],
    });
    // The key's one call a minute, spent now: its window ends while the .NET tests build, so they meet a real
    // 429 whose Retry-After (the rest of the window, at most 60 s) the client can wait out within its budget.
    const first = await system.call(limited.secret, '/v2/channels');
    assert.equal(first.status, 200, await first.text());
  });

  after(async () => {
    await system?.stop();
    commerceData?.remove();
  });

  it('passes the integration tests: keys, catalogue, paging, carts, rotation, 403, 429, webhooks, sandbox events, plans and quotas', async () => {
    const result = await dotnet(
      [
        'test',
        'tests/Keygate.Client.IntegrationTests',
        '--filter',
        'FullyQualifiedName!~IdempotentCheckoutTests',
        '--logger',
        'console;verbosity=normal',
      ],
      {
        cwd: CLIENT_DOTNET_DIR,
        env: {
          KEYGATE_BASE_URL: system.gateway.url,
          KEYGATE_ADMIN_KEY: admin.secret,
          KEYGATE_LIMITED_KEY: limited.secret,
        },
      },
    );
    assert.equal(result.code, 0, result.output);
    assert.match(result.output, /Total tests: 14\s+Passed: 14\s/, result.output);
  });

  it('retries a checkout whose answer was lost and returns the one order it made', async () => {
    const isCheckout = (call: { method: string; path: string }) =>
      call.method === 'POST' && call.path.endsWith(':checkout');
    const proxy = await startDroppingProxy(
      system.gateway.url,
      (call, earlier) => isCheckout(call) && !earlier.some((seen) => seen.dropped),
    );
    try {
      const result = await dotnet(
        [
          'test',
          'tests/Keygate.Client.IntegrationTests',
          '--filter',
          'FullyQualifiedName~IdempotentCheckoutTests',
          '--logger',
          'console;verbosity=normal',
        ],
        {
          cwd: CLIENT_DOTNET_DIR,
          env: {
            KEYGATE_BASE_URL: system.gateway.url,
            KEYGATE_ADMIN_KEY: admin.secret,
            KEYGATE_LIMITED_KEY: limited.secret,
            KEYGATE_PROXY_URL: proxy.url,
          },
        },
      );
      assert.equal(result.code, 0, result.output);
      assert.match(result.output, /Total tests: 1\s+Passed: 1\s/, result.output);
      const [, cartId, orderId] = /idempotent checkout: cart (\S+) order (\S+)/.exec(result.output) ?? [];

      const checkouts = proxy.calls.filter(isCheckout);
      const [lost, retried] = checkouts;
      assert.equal(checkouts.length, 2, JSON.stringify(checkouts));
      assert.ok(lost?.dropped && !retried?.dropped);
      assert.match(
        lost.idempotencyKey ?? '',
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      assert.equal(retried?.idempotencyKey, lost.idempotencyKey);
      assert.equal(retried?.replayed, true);
      assert.equal(JSON.parse(lost.body).id, orderId, 'the lost answer held the order the caller got');
      assert.equal(JSON.parse(retried.body).id, orderId);

      const db = new DatabaseSync(join(commerceData.path, 'commerce-test.db'), { readOnly: true });
      try {
        const row = db.prepare('SELECT count(*) AS n FROM orders WHERE cart_id = ?').get(cartId as string);
        assert.equal(row?.n, 1, `orders of cart ${cartId}`);
      } finally {
        db.close();
      }
    } finally {
      await proxy.close();
    }
  });

  it('packs Keygate.Client and runs docs/client-dotnet.md from a fresh project fed from a folder', async () => {
    const work = tempDir('keygate-dotnet-package-');
    try {
      const feed = join(work.path, 'feed');
      const packed = await dotnet(
        ['pack', 'src/Keygate.Client', '--configuration', 'Release', '--output', feed],
        {
          cwd: CLIENT_DOTNET_DIR,
        },
      );
      assert.equal(packed.code, 0, packed.output);
      const nupkg = readZip(join(feed, 'Keygate.Client.0.1.0.nupkg'));
      for (const file of ['README.md', 'lib/net8.0/Keygate.Client.dll', 'lib/net10.0/Keygate.Client.dll']) {
        assert.ok(nupkg.has(file), `the package holds ${file}`);
      }
      const nuspec = nupkg.get('Keygate.Client.nuspec')?.toString('utf8') ?? '';
      assert.match(nuspec, /<id>Keygate.Client<\/id>/);
      assert.match(nuspec, /<license type="expression">MIT<\/license>/);
      assert.match(nuspec, /<readme>README.md<\/readme>/);
      assert.match(nuspec, /<repository type="git" url="[^"]+"/);
      const symbols = readZip(join(feed, 'Keygate.Client.0.1.0.snupkg'));
      assert.ok(symbols.has('lib/net8.0/Keygate.Client.pdb'), 'the symbols package holds the net8.0 PDB');
      assert.ok(symbols.has('lib/net10.0/Keygate.Client.pdb'), 'the symbols package holds the net10.0 PDB');

      // A consumer outside the workspace: its own folder, the feed as an extra package source, and a package
      // folder of its own so the package comes from the feed, never from an earlier restore's cache.
      const app = join(work.path, 'app');
      mkdirSync(app);
      writeFileSync(
        join(app, 'nuget.config'),
        `<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <packageSources>\n    <add key="keygate-feed" value="${feed}" />\n  </packageSources>\n</configuration>\n`,
      );
      writeFileSync(
        join(app, 'App.csproj'),
        [
          '<Project Sdk="Microsoft.NET.Sdk">',
          '  <PropertyGroup>',
          '    <OutputType>Exe</OutputType>',
          '    <TargetFramework>net10.0</TargetFramework>',
          '    <Nullable>enable</Nullable>',
          '    <ImplicitUsings>enable</ImplicitUsings>',
          '  </PropertyGroup>',
          '  <ItemGroup>',
          '    <PackageReference Include="Keygate.Client" Version="0.1.0" />',
          '  </ItemGroup>',
          '</Project>',
          '',
        ].join('\n'),
      );
      const blocks = csharpBlocks(readFileSync(join(ROOT, 'docs/client-dotnet.md'), 'utf8'));
      assert.ok(blocks.length >= 5, 'docs/client-dotnet.md has its example blocks');
      writeFileSync(join(app, 'Program.cs'), blocks.join('\n'));
      const env = { NUGET_PACKAGES: join(work.path, 'packages') };
      const restored = await dotnet(['restore'], { cwd: app, env });
      assert.equal(restored.code, 0, restored.output);
      const lock = JSON.parse(readFileSync(join(app, 'obj/project.assets.json'), 'utf8')) as {
        libraries: Record<string, { type: string }>;
      };
      assert.equal(lock.libraries['Keygate.Client/0.1.0']?.type, 'package');

      const key = await system.createKey({
        name: 'dotnet-docs',
        env: 'test',
        scopes: ['auth:rw', 'article:r', 'order:rw'],
      });
      const ran = await dotnet(['run', '--no-restore'], {
        cwd: app,
        env: { ...env, KEYGATE_BASE_URL: system.gateway.url, KEYGATE_API_KEY: key.secret },
      });
      assert.equal(ran.code, 0, ran.output);
      assert.match(ran.output, /channels: .*WEB_DE/);
      assert.match(ran.output, /KG-00001 .+: \d+ EUR/);
      assert.match(ran.output, /found \d products over 100 EUR/);
      assert.match(ran.output, /order ord_[\w-]+: \d+ EUR/);
      assert.match(ran.output, /cart checked out at \d{4}-\d{2}-\d{2}T/);
      assert.match(ran.output, /key key_\w+ expires after \d{4}-\d{2}-\d{2}/);
      assert.match(ran.output, /this key lacks stock:r \(request req_\w+\)/);
      assert.match(ran.output, /refused \(MissingHeaders\)/);
      assert.match(ran.output, /QUOTA_EXCEEDED \(day\): resets in \d/);
      assert.match(ran.output, /acme-\w+ holds 599 credits/);
    } finally {
      work.remove();
    }
  });
});
