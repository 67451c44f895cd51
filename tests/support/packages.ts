import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './processes.ts';

/**
 * The workspace packages published to npm, dependencies first. Publishing one more means a line
 * here, plus in its folder: `publishConfig`, `files`, `license`, the `build`/`prepack` scripts and a
 * `tsconfig.build.json` like the others, a README with its install line and a LICENSE.
 */
export const PUBLISHED_PACKAGES = [
  { name: '@keygate/problem', dir: 'packages/problem' },
  { name: '@keygate/webhooks', dir: 'packages/webhooks' },
  { name: '@keygate/cli', dir: 'packages/cli' },
  { name: '@keygate/identity', dir: 'packages/identity' },
  { name: '@keygate/client', dir: 'packages/client' },
] as const;

export type PublishedName = (typeof PUBLISHED_PACKAGES)[number]['name'];

/** The output of a finished command. */
export interface CommandResult {
  code: number | null;
  output: string;
}

/** How a command runs: its folder, extra environment, and whether to run it as from a clean shell. */
export interface CommandOptions {
  cwd: string;
  env?: Record<string, string>;
  /**
   * Drops the npm_* variables that npx and pnpm set for the scripts they run (npm_config_local_prefix
   * names this workspace, for one), so npm behaves as in a user's own shell.
   */
  outsideWorkspace?: boolean;
}

/** This process's environment without the npm_* variables npx and pnpm set: a user's own shell. */
export function userShellEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

/** Runs a command to completion, stdout and stderr interleaved as a person would see them. */
export function runCommand(command: string, args: string[], options: CommandOptions): Promise<CommandResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...(options.outsideWorkspace ? userShellEnv() : process.env), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    // `close`, not `exit`: the output is complete only once both pipes have ended.
    child.on('close', (code) => resolveRun({ code, output }));
  });
}

/** Like runCommand, but a non-zero exit is an error that carries the output. */
export async function mustRun(command: string, args: string[], options: CommandOptions): Promise<string> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.output}`);
  }
  return result.output;
}

/** The pnpm the workspace pins (`packageManager`), run through npx as the README says. */
function pnpmArgs(): string[] {
  const { packageManager } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    packageManager: string;
  };
  return ['--yes', packageManager];
}

/** One packed package: its tarball and the tarball's contents unpacked next to it. */
export interface PackedPackage {
  name: PublishedName;
  tarball: string;
  /** The unpacked `package/` folder of the tarball. */
  dir: string;
  /** The packed package.json, as npm will read it. */
  manifest: Record<string, unknown> & {
    dependencies?: Record<string, string>;
    exports?: unknown;
  };
  /** Every file in the tarball, relative to `dir`, sorted. */
  files: string[];
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** `pnpm pack`s every published package into `destination` (its prepack builds it) and unpacks it. */
export async function packPackages(destination: string): Promise<Map<PublishedName, PackedPackage>> {
  const packed = new Map<PublishedName, PackedPackage>();
  for (const { name, dir } of PUBLISHED_PACKAGES) {
    const output = await mustRun(
      'npx',
      [...pnpmArgs(), '--filter', name, 'pack', '--json', '--pack-destination', destination],
      { cwd: ROOT },
    );
    // pnpm prints the prepack script's lines first, then the JSON document.
    const { filename } = JSON.parse(output.slice(output.search(/^\{/m))) as { filename: string };
    const unpacked = join(destination, 'unpacked', dir.replace(/\W/g, '-'));
    mkdirSync(unpacked, { recursive: true });
    await mustRun('tar', ['-xzf', filename, '-C', unpacked], { cwd: destination });
    const packageDir = join(unpacked, 'package');
    packed.set(name, {
      name,
      tarball: filename,
      dir: packageDir,
      manifest: JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')),
      files: listFiles(packageDir),
    });
  }
  return packed;
}

/** A dependency's version range as a workspace package.json declares it. */
export function workspaceRange(packageJson: string, dependency: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, packageJson), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  const range = manifest.dependencies?.[dependency] ?? manifest.devDependencies?.[dependency];
  if (!range) throw new Error(`${packageJson} does not declare ${dependency}`);
  return range;
}
