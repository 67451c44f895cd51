import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GATEWAY_NODE_FLAGS } from '../../gateway/src/node-flags.ts';
import { freePort, ROOT, tempDir, waitForOk } from '../support/processes.ts';
import { waitUntil } from '../support/traffic.ts';

describe('pnpm start', () => {
  it('starts the gateway and both commerce services, and Ctrl-C stops them all', async () => {
    const dir = tempDir();
    const [gatewayPort, livePort, testPort] = [await freePort(), await freePort(), await freePort()];
    const child = spawn(process.execPath, [resolve(ROOT, 'scripts/start.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        KEYGATE_DATA_DIR: dir.path,
        GATEWAY_PORT: String(gatewayPort),
        COMMERCE_LIVE_PORT: String(livePort),
        COMMERCE_TEST_PORT: String(testPort),
        KEYGATE_UPSTREAM_LIVE: `http://127.0.0.1:${livePort}`,
        KEYGATE_UPSTREAM_TEST: `http://127.0.0.1:${testPort}`,
        KEYGATE_JWKS_URL: `http://127.0.0.1:${gatewayPort}/.well-known/jwks.json`,
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
