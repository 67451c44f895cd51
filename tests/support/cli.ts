import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './processes.ts';

/** `keygate-cli` as an integrator runs it: its own process, a test key, the gateway's URL. */
export interface CliProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Which `keygate-cli` runs, from where, and with which environment underneath the test's own. */
export interface CliInstall {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The workspace's CLI: Node runs packages/cli's TypeScript source directly. */
export const WORKSPACE_CLI: CliInstall = {
  command: process.execPath,
  args: [join(ROOT, 'packages/cli/src/main.ts')],
  cwd: ROOT,
  env: process.env,
};

/** Starts `keygate-cli <args>` with `env` (the key, the base URL) and keeps its output. */
export function startCli(args: string[], env: Record<string, string>, cli = WORKSPACE_CLI): CliProcess {
  const child = spawn(cli.command, [...cli.args, ...args], {
    cwd: cli.cwd,
    env: { ...cli.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** The `whsec_…` signing secret `keygate-cli listen` prints when it starts, once it has. */
export function printedSecret(cli: CliProcess): string | undefined {
  return /(whsec_[A-Za-z0-9+/=]+)/.exec(cli.stdout())?.[1];
}
