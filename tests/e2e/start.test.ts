import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GATEWAY_NODE_FLAGS } from '../../gateway/src/node-flags.ts';
import { freePort, ROOT, runNode, tempDir, waitForOk } from '../support/processes.ts';
import { waitUntil } from '../support/traffic.ts';

describe('pnpm start', () => {
  it('starts the gateway and both commerce services, and Ctrl-C stops them all', async () => {
    const dir = tempDir();
    const [gatewayPort, livePort, testPort] = [await freePort(), await freePort(), await freePort()];
    // No KEYGATE_UPSTREAM_* or KEYGATE_JWKS_URL: `pnpm start` must wire its own ports through.
    const {
      KEYGATE_UPSTREAM_LIVE: _live,
      KEYGATE_UPSTREAM_TEST: _test,
      KEYGATE_JWKS_URL: _jwks,
      ...inherited
    } = process.env;
    const child = spawn(process.execPath, [resolve(ROOT, 'scripts/start.ts')], {
      cwd: ROOT,
      env: {
        ...inherited,
        KEYGATE_DATA_DIR: dir.path,
        GATEWAY_PORT: String(gatewayPort),
        COMMERCE_LIVE_PORT: String(livePort),
        COMMERCE_TEST_PORT: String(testPort),
      },
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
      await waitForOk(`http://127.0.0.1:${livePort}/readyz`, 30_000);
      await waitForOk(`http://127.0.0.1:${testPort}/readyz`, 30_000);
      await waitUntil('start prints the banner', () => output.includes('keys create'), 10_000);
      assert.match(output, /pnpm keygate keys create/, 'start prints how to get a first key');
      // The gateway runs with the Node flags of gateway/src/node-flags.ts, and says so when listening.
      await waitUntil(
        'the gateway says it listens',
        () => output.includes('keygate gateway listening'),
        10_000,
      );
      const listening = output.split('\n').find((line) => line.includes('keygate gateway listening'))!;
      const fields = JSON.parse(listening.slice(listening.indexOf('{'))) as { nodeFlags?: string[] };
      assert.deepEqual(fields.nodeFlags, [...GATEWAY_NODE_FLAGS]);
      // A proxied call reaches commerce on the ports given, and commerce trusts this gateway's
      // signature (its JWKS fetched from GATEWAY_PORT, not 8080): both environments answer 200.
      for (const environment of ['live', 'test'] as const) {
        const created = await runNode(
          'gateway/src/cli.ts',
          ['keys', 'create', '--name', environment, '--env', environment, '--scopes', 'article:r', '--json'],
          { KEYGATE_DATA_DIR: dir.path },
        );
        assert.equal(created.code, 0, created.stderr);
        const { secret } = JSON.parse(created.stdout) as { secret: string };
        const res = await fetch(`http://127.0.0.1:${gatewayPort}/v2/channels`, {
          headers: { Authorization: `Bearer ${secret}` },
        });
        assert.equal(res.status, 200, `${environment}: ${await res.text()}`);
      }
    } finally {
      child.kill('SIGINT');
    }
    assert.equal(await exited, 0, output);
    for (const port of [gatewayPort, livePort, testPort]) {
      await assert.rejects(
        fetch(`http://127.0.0.1:${port}/healthz`),
        `port ${port} still answers after Ctrl-C`,
      );
    }
    dir.remove();
  });
});

describe('the other ways to start a gateway', () => {
  it('pass the Node flags of gateway/src/node-flags.ts, as pnpm start does', () => {
    const scripts = (path: string) =>
      (JSON.parse(readFileSync(resolve(ROOT, path), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const flags = GATEWAY_NODE_FLAGS.join(' ');
    assert.equal(scripts('package.json')['start:gateway'], `node ${flags} gateway/src/main.ts`);
    assert.equal(scripts('gateway/package.json').start, `node ${flags} src/main.ts`);
  });
});
