import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

describe('gateway process (src/main.ts)', () => {
  let blackhole: Server;
  let dataDir: string;
  const sockets = new Set<Socket>();
  beforeEach(async () => {
    // A "Redis" that accepts connections and never answers: startup waits on it.
    blackhole = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    dataDir = mkdtempSync(join(tmpdir(), 'keygate-main-'));
  });
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => blackhole.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('on SIGTERM while still starting', () => {
    it('writes out the lines logged so far and exits with 143', async () => {
      const child = spawn(process.execPath, [MAIN], {
        env: {
          ...process.env,
          KEYGATE_DATA_DIR: dataDir,
          KEYGATE_POLICIES: 'off',
          KEYGATE_BENCH_MODE: '1',
          REDIS_URL: `redis://127.0.0.1:${(blackhole.address() as AddressInfo).port}`,
          KEYGATE_SECRET_TAG_KEY: Buffer.alloc(32, 5).toString('base64url'),
          GATEWAY_PORT: '0',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
      });
      const exited = once(child, 'exit');
      // Connected to the blackhole: the gateway is waiting on it, past where the lines were logged.
      while (sockets.size === 0) await once(blackhole, 'connection');
      child.kill('SIGTERM');
      const [code, signal] = await exited;
      assert.deepEqual([code, signal], [143, null]);
      assert.match(stdout, /BENCHMARKING MODE/);
      assert.match(stdout, /"signal":"SIGTERM".*stopped before the gateway was ready/);
    });
  });
});
