import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';

/** A Redis for one test suite. */
export interface TestRedis {
  url: string;
  /** A prefix unique to this handle: use it (or prefixes built from it) to keep suites apart. */
  keyPrefix: string;
  /** Stops the server (own server) or deletes this handle's keys (shared REDIS_URL). */
  stop(): Promise<void>;
  /** Kills the server with SIGKILL, as a crash would. Own server only. */
  kill(): Promise<void>;
  /** Starts the server again, empty, on the same port (after `kill` or `stop`). Own server only. */
  restart(): Promise<void>;
  /** Sends a signal to the server (SIGSTOP freezes it, SIGCONT thaws it). Own server only. */
  signal(signal: NodeJS.Signals): void;
}

const READY_TIMEOUT_MS = 5000;
let handles = 0;

/** The path of `redis-server` on PATH, or null. */
export function findRedisServer(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** One PING over a raw socket: true on +PONG. */
export function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** Where a persistent server keeps its append-only file; null for a server that keeps nothing. */
type DataDir = string | null;

function spawnServer(
  bin: string,
  port: number,
  dataDir: DataDir,
): { child: ChildProcess; output: () => string } {
  // appendfsync always: a write a client saw acknowledged survives a SIGKILL of the server.
  const persistence = dataDir
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dataDir]
    : ['--appendonly', 'no'];
  const child = spawn(
    bin,
    ['--save', '', ...persistence, '--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

/** Spawns redis-server on `port` and waits until it answers PING. */
async function startServer(bin: string, port: number, dataDir: DataDir): Promise<ChildProcess> {
  const { child, output } = spawnServer(bin, port, dataDir);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await pingOnce(port)) return child;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on port ${port} did not start:\n${output()}`);
}

async function waitForExit(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}

async function startOwnServer(bin: string, keyPrefix: string, persistent: boolean): Promise<TestRedis> {
  const dataDir: DataDir = persistent ? mkdtempSync(join(tmpdir(), 'keygate-redis-')) : null;
  const removeDataDir = () => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; !child; attempt++) {
    port = await freePort();
    try {
      child = await startServer(bin, port, dataDir);
    } catch (error) {
      if (attempt >= 2) {
        removeDataDir();
        throw error;
      }
    }
  }
  let current: ChildProcess = child;
  const killOnExit = () => current.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    keyPrefix,
    async stop() {
      process.removeListener('exit', killOnExit);
      await waitForExit(current, 'SIGTERM');
      removeDataDir();
    },
    kill: () => waitForExit(current, 'SIGKILL'),
    async restart() {
      await waitForExit(current, 'SIGKILL');
      current = await startServer(bin, port, dataDir);
    },
    signal(signal) {
      current.kill(signal);
    },
  };
}

/** Deletes every key under a prefix (for a shared Redis). */
async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/**
 * A Redis for tests: spawns `redis-server` (loopback, a free port; with `persistent`, an
 * fsync-always append-only file in a temp dir, so a killed server restarts with its data) when it
 * is on PATH; else uses REDIS_URL with a unique key prefix (no kill/restart then); else fails with a
 * clear message (under CI=true too: a missing Redis fails the run, it is never skipped).
 */
export async function startRedis(options: { persistent?: boolean } = {}): Promise<TestRedis> {
  const keyPrefix = `kgtest:${process.pid}:${++handles}:${randomBytes(3).toString('hex')}:`;
  const bin = findRedisServer();
  if (bin) return startOwnServer(bin, keyPrefix, options.persistent === true);
  const url = process.env.REDIS_URL;
  if (url) {
    const unsupported = async () => {
      throw new Error('kill/restart need redis-server on PATH; REDIS_URL points at a shared Redis');
    };
    return {
      url,
      keyPrefix,
      stop: () => deleteKeys(url, keyPrefix),
      kill: unsupported,
      restart: unsupported,
      signal() {
        throw new Error('signal needs redis-server on PATH; REDIS_URL points at a shared Redis');
      },
    };
  }
  const ci = process.env.CI === 'true' ? ' (CI=true: a missing Redis fails the run)' : '';
  throw new Error(`these tests need Redis: put redis-server on PATH or set REDIS_URL${ci}`);
}
