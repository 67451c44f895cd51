import { text } from 'node:stream/consumers';
import { runCli } from './cli/run-cli.ts';

/**
 * The operator CLI (`pnpm keygate …` = `node gateway/src/cli.ts …`). An entrypoint: it alone reads
 * process.env and sets the exit code; everything else lives in ./cli/.
 */
process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin: () => text(process.stdin),
});
