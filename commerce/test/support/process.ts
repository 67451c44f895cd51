import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { TestIdentity } from './identity.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** A port that was free a moment ago. */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  server.close();
  await once(server, 'close');
  return address.port;
}

/** The parent's environment without any commerce or keygate setting, plus `extra`. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(COMMERCE_|KEYGATE_|LOG_LEVEL$)/.test(name)),
  );
  return { ...clean, ...extra };
}

/** Children still running; `killRunning` (afterEach) kills those a failed test left behind. */
const running = new Set<ChildProcess>();

export function killRunning(): void {
  for (const child of running) child.kill('SIGKILL');
}

export interface MainProcess {
  child: ChildProcess;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  stderr(): string;
}

/** Starts `node src/main.ts` in the commerce package with `env`. */
export function startMain(env: NodeJS.ProcessEnv): MainProcess {
  // Started as in production (package.json start): drizzle-orm loaded as CommonJS.
  const child = spawn(process.execPath, ['--import', './src/drizzle-commonjs.ts', 'src/main.ts'], {
    cwd: PACKAGE_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  child.stdout?.resume();
  running.add(child);
  child.on('exit', () => running.delete(child));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, stderr: () => stderr };
}

/** Polls /readyz until it answers 200; fails fast if the process exits first. */
export async function waitUntilReady(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`commerce exited early with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('commerce did not become ready');
}

/** A request with a signed assertion for a live key, as the gateway would send it. */
export async function signedFetch(
  identity: TestIdentity,
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const assertion = await identity.assert({ method, path, environment: 'live' });
  return fetch(base + path, {
    method,
    headers: {
      'X-Keygate-Identity': assertion,
      'X-Channel': 'WEB_DE',
      'Content-Type': 'application/json',
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
