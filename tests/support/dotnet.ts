import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { type CommandResult, runCommand } from './packages.ts';
import { ROOT } from './processes.ts';

/** packages/client-dotnet: the .NET client's solution. */
export const CLIENT_DOTNET_DIR = resolve(ROOT, 'packages/client-dotnet');

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
  return runCommand('dotnet', args, {
    cwd: options.cwd,
    // No telemetry, no first-run banner, no build server left running after the test.
    env: {
      DOTNET_CLI_TELEMETRY_OPTOUT: '1',
      DOTNET_NOLOGO: '1',
      DOTNET_CLI_USE_MSBUILD_SERVER: '0',
      MSBUILDDISABLENODEREUSE: '1',
      ...options.env,
    },
  });
}

/** The text of every ```csharp block of a Markdown page, in order. */
export function csharpBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```csharp\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '');
}

/**
 * The files of a zip archive (a .nupkg or .snupkg) by name, read from its central directory, so checking a
 * package needs no unzip binary. Only the stored and deflate methods occur in NuGet packages.
 */
export function readZip(path: string): Map<string, Buffer> {
  const zip = readFileSync(path);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${path} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(data, data + size);
    files.set(name, method === 8 ? inflateRawSync(raw) : raw);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
