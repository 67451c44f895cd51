import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { ROOT } from './processes.ts';

/** packages/client-dotnet: the .NET client's solution. */
export const CLIENT_DOTNET_DIR = resolve(ROOT, 'packages/client-dotnet');

/** What a finished command printed and how it exited. */
export interface CommandResult {
  code: number | null;
  output: string;
}

/**
 * Fails when the .NET SDK is not on PATH: the .NET client is tested against the running system, never skipped
 * (`.ci/run` checks for it too).
 */
export function requireDotnet(): void {
  const probe = spawnSync('dotnet', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `dotnet (the .NET SDK, 10 or later) is not on PATH: the .NET client's tests need it (${probe.error?.message ?? probe.stderr})`,
    );
  }
}

/** Runs `dotnet <args>` in `cwd` with extra environment; resolves with its exit code and combined output. */
export function dotnet(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CommandResult> {
  return new Promise((resolveResult, reject) => {
    const child = spawn('dotnet', args, {
      cwd: options.cwd,
      // No telemetry, no first-run banner, no build server left running after the test.
      env: {
        ...process.env,
        DOTNET_CLI_TELEMETRY_OPTOUT: '1',
        DOTNET_NOLOGO: '1',
        DOTNET_CLI_USE_MSBUILD_SERVER: '0',
        MSBUILDDISABLENODEREUSE: '1',
        ...options.env,
      },
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
    child.on('close', (code) => resolveResult({ code, output }));
  });
}

/** The text of every ```csharp block of a Markdown page, in order. */
export function csharpBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```csharp\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '');
}
