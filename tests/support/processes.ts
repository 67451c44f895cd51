import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A port the OS reports free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A fresh temp directory removed by the returned function. */
export function tempDir(prefix = 'keygate-e2e-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A real child process with its output kept for failure messages. */
export interface Service {
  name: string;
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code once the process exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for exit; resolves with the exit code. */
  stop: () => Promise<number | null>;
}

/** Spawns `node <script>` from the repo root and waits until `readyPath` answers 200. */
export async function startService(options: {
  name: string;
  script: string;
  port: number;
  env: Record<string, string>;
  readyPath?: string;
  args?: string[];
}): Promise<Service> {
  const child = spawn(process.execPath, [resolve(ROOT, options.script), ...(options.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
  const service: Service = {
    name: options.name,
    url,
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  await waitForOk(`${url}${options.readyPath ?? '/healthz'}`, 30_000, () => {
    if (child.exitCode !== null)
      throw new Error(`${options.name} exited early (${child.exitCode}):\n${output}`);
  });
  return service;
}

/** Polls `url` until it answers 2xx or the time runs out. */
export async function waitForOk(url: string, timeoutMs: number, check: () => void = () => {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    check();
    try {
      const res = await fetch(url);
      if (res.ok) return;
      lastError = new Error(`${url} answered ${res.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms: ${String(lastError)}`);
}

/** Runs `node <script> args…` to completion. */
export function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [resolve(ROOT, script), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('exit', (code) => resolveRun({ code, stdout, stderr }));
  });
}
