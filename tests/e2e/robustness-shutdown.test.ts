import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { freePort, ROOT, tempDir, waitForOk } from '../support/processes.ts';
import { startRedis, type TestRedis } from '../support/redis.ts';

/**
 * Shutdown ends whatever the store or stdout do: within KEYGATE_SHUTDOWN_GRACE_MS plus a few
 * seconds, and at once on a second signal. The bounds below are generous (a shared, noisy machine)
 * yet far below what the defects produced: a gateway that never exited.
 */
const GRACE_MS = 500;
/** How long after SIGTERM a process may take to exit here: grace, the overrun allowance, start-up noise. */
const EXIT_BOUND_MS = GRACE_MS + 15_000;

interface Running {
  child: ChildProcess;
  port: number;
  output: () => string;
  /** Resolves with [code, signal] once the process exited. */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

async function spawnService(script: string, port: number, env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [resolve(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await waitForOk(`http://127.0.0.1:${port}/healthz`, 30_000, () => {
    if (child.exitCode !== null) throw new Error(`${script} exited early:\n${output}`);
  });
  return { child, port, output: () => output, exited };
}

/** Whether the process exited within `ms`; kills it (SIGKILL) if not, so no test leaves it behind. */
async function exitsWithin(running: Running, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((r) => {
    timer = setTimeout(() => r(false), ms);
  });
  const done = await Promise.race([running.exited.then(() => true as const), timedOut]);
  clearTimeout(timer);
  if (!done) running.child.kill('SIGKILL');
  return done;
}

/** An "upstream" that accepts connections and never answers: a proxied call through it stays in flight. */
async function silentUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Starts a GET that the gateway forwards to a silent upstream (benchmarking mode: no key needed). */
function inFlightCall(port: number): void {
  const req = request({ port, host: '127.0.0.1', path: '/v2/channels' });
  req.on('error', () => {});
  req.end();
}

/** A POST whose announced body never arrives in full: its connection stays busy. */
function partialBody(port: number): Socket {
  const socket = connect(port, '127.0.0.1', () =>
    socket.write(
      'POST /v2/carts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    ),
  );
  socket.on('error', () => {});
  return socket;
}

describe('shutdown in bounded time', () => {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  describe('a gateway on Redis when Redis dies during its shutdown', () => {
    let redis: TestRedis;
    beforeEach(async () => {
      redis = await startRedis();
    });
    afterEach(async () => {
      redis.signal('SIGCONT');
      await redis.stop();
    });

    for (const death of ['frozen (SIGSTOP)', 'killed (SIGKILL)'] as const) {
      it(`exits within the grace period plus a few seconds with Redis ${death}`, async () => {
        const dir = tempDir();
        dirs.push(dir);
        const port = await freePort();
        const gateway = await spawnService('gateway/src/main.ts', port, {
          KEYGATE_DATA_DIR: dir.path,
          GATEWAY_PORT: String(port),
          REDIS_URL: redis.url,
          KEYGATE_REDIS_PREFIX: redis.keyPrefix,
          KEYGATE_SECRET_TAG_KEY: Buffer.alloc(32, 3).toString('base64url'),
          KEYGATE_SHUTDOWN_GRACE_MS: String(GRACE_MS),
          KEYGATE_USAGE_FLUSH_MS: '100',
        });
        // A call that leaves usage to flush and a key to look up: work for the store at shutdown.
        await fetch(`http://127.0.0.1:${port}/v2/channels`, {
          headers: { Authorization: 'Bearer kg_live_nothere_x' },
        }).then((res) => res.arrayBuffer());
        if (death === 'frozen (SIGSTOP)') redis.signal('SIGSTOP');
        else await redis.kill();
        gateway.child.kill('SIGTERM');
        assert.ok(await exitsWithin(gateway, EXIT_BOUND_MS), `still running:\n${gateway.output()}`);
        if (death === 'killed (SIGKILL)') await redis.restart();
      });
    }
  });

  describe('a second SIGTERM or SIGINT', () => {
    for (const service of ['gateway', 'commerce'] as const) {
      it(`ends the ${service} at once while in-flight work would hold it`, async () => {
        const dir = tempDir();
        dirs.push(dir);
        const upstream = await silentUpstream();
        const port = await freePort();
        const running =
          service === 'gateway'
            ? await spawnService('gateway/src/main.ts', port, {
                KEYGATE_DATA_DIR: dir.path,
                GATEWAY_PORT: String(port),
                KEYGATE_POLICIES: 'off',
                KEYGATE_BENCH_MODE: '1',
                KEYGATE_UPSTREAM_TEST: upstream.url,
                KEYGATE_UPSTREAM_TIMEOUT_MS: '600000',
                KEYGATE_SHUTDOWN_GRACE_MS: '600000',
              })
            : await spawnService('commerce/src/main.ts', port, {
                KEYGATE_DATA_DIR: dir.path,
                COMMERCE_PORT: String(port),
                COMMERCE_ENV: 'test',
                KEYGATE_JWKS_URL: `${upstream.url}/.well-known/jwks.json`,
                COMMERCE_SHUTDOWN_GRACE_MS: '600000',
              });
        let heldBody: Socket | undefined;
        try {
          // Gateway: a call held by the silent upstream. Commerce: a request whose body never ends.
          if (service === 'gateway') inFlightCall(port);
          else heldBody = partialBody(port);
          await new Promise((r) => setTimeout(r, 300));
          running.child.kill('SIGTERM');
          await new Promise((r) => setTimeout(r, 300));
          assert.equal(running.child.exitCode, null, 'the first SIGTERM waits for in-flight work');
          running.child.kill('SIGINT');
          assert.ok(await exitsWithin(running, 5_000), `still running:\n${running.output()}`);
        } finally {
          running.child.kill('SIGKILL');
          heldBody?.destroy();
          await upstream.close();
        }
      });
    }
  });

  /** A gateway or a commerce (test environment) with the short grace period, logging at info. */
  async function spawnWithShortGrace(service: 'gateway' | 'commerce'): Promise<Running> {
    const dir = tempDir();
    dirs.push(dir);
    const port = await freePort();
    return service === 'gateway'
      ? await spawnService('gateway/src/main.ts', port, {
          KEYGATE_DATA_DIR: dir.path,
          GATEWAY_PORT: String(port),
          KEYGATE_SHUTDOWN_GRACE_MS: String(GRACE_MS),
        })
      : await spawnService('commerce/src/main.ts', port, {
          KEYGATE_DATA_DIR: dir.path,
          COMMERCE_PORT: String(port),
          COMMERCE_ENV: 'test',
          COMMERCE_SHUTDOWN_GRACE_MS: String(GRACE_MS),
        });
  }

  /** `count` requests one after the other, each logging an access line. */
  async function logLines(port: number, count: number): Promise<void> {
    for (let i = 0; i < count; i++) await (await fetch(`http://127.0.0.1:${port}/v2/nothing`)).arrayBuffer();
  }

  describe('with stdout closed by its reader', () => {
    for (const service of ['gateway', 'commerce'] as const) {
      it(`the ${service} exits within the grace period plus a few seconds`, async () => {
        const running = await spawnWithShortGrace(service);
        // Lines still buffered when stdout goes: the exit's flush must not spin on EPIPE. (A line
        // logged while the write before it is still in flight, as "stopped" is, waits for that flush.)
        await logLines(running.port, 20);
        running.child.stdout!.destroy();
        running.child.kill('SIGTERM');
        assert.ok(await exitsWithin(running, EXIT_BOUND_MS), `still running:\n${running.output()}`);
      });
    }
  });

  describe('with stdout no longer read (a stalled log collector)', () => {
    for (const service of ['gateway', 'commerce'] as const) {
      it(`the ${service} exits within the grace period plus a few seconds`, async () => {
        const running = await spawnWithShortGrace(service);
        running.child.stdout!.pause();
        // Far more than a pipe holds: the exit's flush meets a full pipe and must give up on it.
        await logLines(running.port, 3000);
        running.child.kill('SIGTERM');
        assert.ok(await exitsWithin(running, EXIT_BOUND_MS), `still running:\n${running.output()}`);
      });
    }
  });
});
