#!/usr/bin/env node
import { runCli } from './run-cli.ts';

/** The entrypoint (`keygate-cli …`): it alone reads process.env and sets the exit code; Ctrl-C ends a session. */
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());
process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
});
