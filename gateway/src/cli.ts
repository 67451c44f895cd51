#!/usr/bin/env node
import { userInfo } from 'node:os';
import { createInterface } from 'node:readline/promises';
import { text } from 'node:stream/consumers';
import { runCli } from './cli/run-cli.ts';

/**
 * The operator CLI (`pnpm keygate …` = `node gateway/src/cli.ts …`). An entrypoint: it alone reads
 * process.env and sets the exit code; everything else lives in ./cli/.
 */
/** The OS user name; falls back to the environment, then the uid, where the user has no passwd entry. */
function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER || process.env.LOGNAME || `uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  osUser: osUserName(),
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin: () => text(process.stdin),
  readLine: process.stdin.isTTY
    ? async (question) => {
        const terminal = createInterface({ input: process.stdin, output: process.stderr });
        try {
          return await terminal.question(question);
        } finally {
          terminal.close();
        }
      }
    : undefined,
});
