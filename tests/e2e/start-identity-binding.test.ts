import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort, ROOT, runNode, tempDir, waitForOk } from '../support/processes.ts';

for (const binding of ['key', 'request'] as const) {
  describe(`pnpm start with KEYGATE_IDENTITY_BINDING=${binding}`, function () {
    this.timeout(90_000);

    it('serves a new key from commerce through the gateway, call after call', async () => {
      const dir = tempDir();
      const [gatewayPort, livePort, testPort] = [await freePort(), await freePort(), await freePort()];
      const env = {
        KEYGATE_DATA_DIR: dir.path,
        GATEWAY_PORT: String(gatewayPort),
        COMMERCE_LIVE_PORT: String(livePort),
        COMMERCE_TEST_PORT: String(testPort),
        KEYGATE_UPSTREAM_LIVE: `http://127.0.0.1:${livePort}`,
        KEYGATE_UPSTREAM_TEST: `http://127.0.0.1:${testPort}`,
        KEYGATE_JWKS_URL: `http://127.0.0.1:${gatewayPort}/.well-known/jwks.json`,
        KEYGATE_IDENTITY_BINDING: binding,
      };
      const child = spawn(process.execPath, [resolve(ROOT, 'scripts/start.ts')], {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c) => {
        output += c;
      });
      child.stderr.on('data', (c) => {
        output += c;
      });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      try {
        await waitForOk(`http://127.0.0.1:${gatewayPort}/healthz`, 30_000);
        await waitForOk(`http://127.0.0.1:${testPort}/readyz`, 30_000);
        const created = await runNode(
          'gateway/src/cli.ts',
          ['keys', 'create', '--name', 'first', '--env', 'test', '--scopes', 'article:r', '--json'],
          env,
        );
        assert.equal(created.code, 0, created.stderr);
        const { secret } = JSON.parse(created.stdout) as { secret: string };
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`http://127.0.0.1:${gatewayPort}/v2/catalog/products?limit=1&n=${i}`, {
            headers: { Authorization: `Bearer ${secret}`, 'X-Channel': 'WEB_DE' },
          });
          assert.equal(res.status, 200, `${await res.clone().text()}\n${output}`);
          assert.ok(Array.isArray(((await res.json()) as { data: unknown[] }).data));
        }
      } finally {
        child.kill('SIGINT');
      }
      assert.equal(await exited, 0, output);
      dir.remove();
    });
  });
}
