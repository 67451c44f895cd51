import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A child the bench started; every one of them is stopped by `stopAll`, whatever happens. */
export interface Child {
  name: string;
  process: ChildProcess;
  /** The last few KB of its output, for error messages. */
  output(): string;
}

const children = new Set<Child>();

/**
 * Where processes run (#44): each measured server (gateways, peers, reference proxies, commerce) on
 * core 0, and the bench itself, wrk, the no-op upstream, the OTLP sink and Redis on the others. Unpinned,
 * the scheduler moved a measured process and its load generator onto one core now and then, and the
 * same target measured twice in a round drifted apart. BENCH_PIN=0 turns it off; it is off by itself
 * on a single core or without `taskset` (util-linux).
 */
export const PINNED = process.env.BENCH_PIN !== '0' && availableParallelism() >= 2 && hasTaskset();
const MEASURED_CORE = '0';
const LOAD_CORES = `1-${availableParallelism() - 1}`;

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins the bench process (every thread) to the load cores: what it starts unpinned inherits them. */
export function pinBenchToLoadCores(): string {
  if (!PINNED) return 'processes not pinned (BENCH_PIN=0, one core, or no taskset)';
  execFileSync('taskset', ['-a', '-p', '-c', LOAD_CORES, String(process.pid)], { stdio: 'ignore' });
  return `measured processes pinned to core ${MEASURED_CORE}; the bench, wrk, the upstream, the OTLP sink and Redis to cores ${LOAD_CORES}`;
}

/** `command args` as run on the measured core (`taskset` execs it: the pid stays the command's). */
export function onMeasuredCore(command: string, args: string[]): [string, string[]] {
  return PINNED ? ['taskset', ['-c', MEASURED_CORE, command, ...args]] : [command, args];
}
const tempDirs = new Set<string>();

export { freePort } from '../../tests/support/processes.ts';

/** A fresh temp directory, removed by `stopAll`. */
export function tempDir(prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(path);
  return path;
}

/**
 * Spawns a long-running child. Its stdin stays an open pipe: the bench's own servers exit when it
 * closes, so they die with the bench even if it is killed outright. With `stdoutFile` its stdout
 * goes straight to that file (a gateway's access log: nothing for the bench process to read while
 * it measures); the file's end is part of `output()`.
 */
export function startChild(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
  stdoutFile?: string,
): Child {
  const stdoutFd = stdoutFile === undefined ? undefined : openSync(stdoutFile, 'a');
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', stdoutFd ?? 'pipe', 'pipe'],
  });
  if (stdoutFd !== undefined) closeSync(stdoutFd);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.stdin?.on('error', () => {});
  const fileEnd = () => (stdoutFile === undefined ? '' : readFileSync(stdoutFile, 'utf8').slice(-8000));
  const entry: Child = { name, process: child, output: () => fileEnd() + output };
  children.add(entry);
  child.on('exit', () => children.delete(entry));
  return entry;
}

/** Runs a command to completion; rejects with its output when it fails. */
export function runToEnd(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  const entry = startChild(name, command, args, env);
  entry.process.stdin?.end();
  let stdout = '';
  entry.process.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return new Promise((resolveRun, reject) => {
    entry.process.on('error', reject);
    entry.process.on('exit', (code, signal) => {
      if (code === 0) resolveRun(stdout);
      else reject(new Error(`${name} failed (${signal ?? code}):\n${entry.output()}`));
    });
  });
}

/** Polls `url` until it answers 2xx; fails at once if the child exits. */
export async function waitForOk(child: Child, url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`${child.name} exited early (${child.process.exitCode}):\n${child.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${child.name}: ${url} not ready after ${timeoutMs} ms:\n${child.output()}`);
}

/** Stops every child (SIGTERM, then SIGKILL after `graceMs`) and removes the temp directories. */
export async function stopAll(graceMs = 3000): Promise<void> {
  const running = [...children];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolveStop) => {
          const { process: proc } = child;
          if (proc.exitCode !== null || proc.signalCode !== null) return resolveStop();
          const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
          proc.once('exit', () => {
            clearTimeout(timer);
            resolveStop();
          });
          proc.kill('SIGTERM');
        }),
    ),
  );
  removeTempDirs();
}

/** Last resort on the way out (synchronous): SIGKILL whatever still runs, remove temp directories. */
export function killAllNow(): void {
  for (const child of children) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
  }
  removeTempDirs();
}

/** BENCH_KEEP=1 keeps the temp directories (the gateways' data and stdout logs) for a look afterwards. */
function removeTempDirs(): void {
  if (process.env.BENCH_KEEP === '1') {
    for (const dir of tempDirs) console.error(`[bench] kept ${dir}`);
  } else for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}
