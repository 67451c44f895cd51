import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { freePort, tempDir } from './processes.ts';

/** A redis-server of one test suite, on a free loopback port. */
export interface TestRedis {
  url: string;
  port: number;
  /** Kills the server with SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Starts the server again on the same port (with `persistent`, with the data it had). */
  restart(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

/** The path of `redis-server` on PATH, or null. */
function findRedisServer(): string | null {
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

/** One PING over a raw socket: true on +PONG (a server still loading its data answers -LOADING). */
function pingOnce(port: number): Promise<boolean> {
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

/** Spawns redis-server on `port` and waits until it answers PING. */
async function startServer(
  bin: string,
  port: number,
  dir: string,
  persistent: boolean,
): Promise<ChildProcess> {
  // appendfsync always: a write the gateway saw acknowledged survives a SIGKILL.
  const persistence = persistent
    ? ['--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  const args = ['--save', '', ...persistence, '--dir', dir, '--port', String(port), '--bind', '127.0.0.1'];
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await pingOnce(port)) return child;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on port ${port} did not start:\n${output}`);
}

async function waitForExit(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}

/**
 * Starts `redis-server` on a free port (loopback only, in a temp directory; with `persistent`, an
 * fsync-always append-only file so a killed server restarts with its data). A missing binary is
 * an error, with or without CI=true: these tests are never skipped.
 */
export async function startRedis(options: { persistent?: boolean } = {}): Promise<TestRedis> {
  const bin = findRedisServer();
  if (!bin) {
    const ci = process.env.CI === 'true' ? ' (CI=true: a missing Redis fails the run)' : '';
    throw new Error(`the scale-out tests need redis-server on PATH (apt-get install redis-server)${ci}`);
  }
  const dir = tempDir('keygate-redis-');
  const persistent = options.persistent === true;
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; !child; attempt++) {
    port = await freePort();
    try {
      child = await startServer(bin, port, dir.path, persistent);
    } catch (error) {
      if (attempt >= 2) {
        dir.remove();
        throw error;
      }
    }
  }
  let current: ChildProcess = child;
  const killOnExit = () => current.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => waitForExit(current, 'SIGKILL'),
    async restart() {
      await waitForExit(current, 'SIGKILL');
      current = await startServer(bin, port, dir.path, persistent);
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      await waitForExit(current, 'SIGTERM');
      dir.remove();
    },
  };
}
