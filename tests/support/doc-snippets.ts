import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { ROOT } from './processes.ts';

/** The pnpm the README names; `pnpm` in the documentation means this when pnpm is not installed. */
export const PNPM = 'npx --yes pnpm@10.34.9';

/** One fenced block of a Markdown file. */
export interface Snippet {
  file: string;
  language: string;
  text: string;
  /** The block's first line, which names it in the test's table. */
  firstLine: string;
}

/** Every fenced block of `file` (relative to the repository root) in one of `languages`. */
export function fencedBlocks(file: string, languages: readonly string[]): Snippet[] {
  const markdown = readFileSync(resolve(ROOT, file), 'utf8');
  const blocks: Snippet[] = [];
  for (const match of markdown.matchAll(/^```([\w-]*)\n([\s\S]*?)^```$/gm)) {
    const [, language = '', text = ''] = match;
    if (!languages.includes(language)) continue;
    blocks.push({ file, language, text, firstLine: text.split('\n')[0] ?? '' });
  }
  return blocks;
}

/** The shell blocks of a Markdown file: what a reader pastes into a terminal. */
export const shellSnippets = (file: string) => fencedBlocks(file, ['sh', 'bash', 'shell', 'console']);

/** `text` with each `[from, to]` replaced everywhere, e.g. the documented port by a free one. */
export function substitute(text: string, replacements: ReadonlyArray<readonly [string, string]>): string {
  // One pass over the text: a replacement is never scanned again, so a free port such as 40001 put in
  // for 8080 is not then taken for the documented 4000.
  if (replacements.length === 0) return text;
  const escapeRegExp = (from: string) => from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const byLength = [...replacements].sort(([a], [b]) => b.length - a.length);
  const pattern = new RegExp(byLength.map(([from]) => escapeRegExp(from)).join('|'), 'g');
  const to = new Map(replacements);
  return text.replace(pattern, (match) => to.get(match) ?? match);
}

/**
 * A directory holding a `pnpm` that runs the pinned pnpm through npx, as the README says to read
 * `pnpm`; put first on PATH so snippets run the real pnpm, banner behaviour included.
 */
export function pnpmShimDir(dir: string): string {
  const shim = join(dir, 'pnpm');
  writeFileSync(shim, `#!/bin/sh\nexec ${PNPM} "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

/**
 * The environment of a reader's terminal: this process's, without what pnpm and npm export to the
 * scripts they run (`pnpm test` starts this test), with `pnpmDir` first on PATH, plus `extra`.
 */
export function readerEnv(pnpmDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|pnpm_|INIT_CWD$)/i.test(name)),
  );
  return { ...env, PATH: `${pnpmDir}${delimiter}${process.env.PATH ?? ''}`, ...extra };
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a snippet with bash from the repository root, as a reader would paste it, except that a
 * failing command or pipeline stage stops it (`-e -o pipefail`), so a broken step cannot hide
 * behind a later one that prints something.
 */
export function runShell(text: string, env: NodeJS.ProcessEnv): Promise<ShellRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', text], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

/** A snippet that starts servers in the background (`… &`): its process group, stopped as one. */
export interface BackgroundShell {
  output: () => string;
  stop: () => Promise<void>;
}

/** Runs a snippet that leaves processes running; `stop` ends the snippet's whole process group. */
export function startShell(text: string, env: NodeJS.ProcessEnv): BackgroundShell {
  // Its own process group, so the servers it backgrounds (and their children) stop together.
  const child: ChildProcess = spawn('bash', ['-c', `${text}\nwait`], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const closed = new Promise<void>((resolveClose) => child.on('close', () => resolveClose()));
  return {
    output: () => output,
    async stop() {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return; // the group is gone already
      }
      await closed;
    },
  };
}

/** Every JSON object or array in `text`, in order (jq's pretty output mixed with plain lines). */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"' && depth > 0) {
      inString = true;
    } else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if ((c === '}' || c === ']') && depth > 0) {
      depth--;
      if (depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  return values;
}

/** The non-empty lines of `text`. */
export const linesOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** Fails with a clear message when a command the documentation uses is not installed. */
export function requireCommands(...commands: string[]): void {
  const missing = commands.filter((command) => spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0);
  if (missing.length > 0) {
    const where = process.env.CI === 'true' ? 'CI must install them' : 'install them to run this test';
    throw new Error(
      `the documentation's commands need ${missing.join(', ')} (Debian: apt-get install ${missing.join(' ')}); ${where}`,
    );
  }
}
