import { parseArgs } from 'node:util';
import { type ApiTarget, assertTestKey, CliError } from './api.ts';
import { listen } from './listen.ts';
import { tailLogs } from './logs-tail.ts';
import { triggerEvent } from './trigger.ts';

export const HELP = `Usage: keygate-cli <command> [options]

The keygate sandbox, from your machine, with a test key (kg_test_…) only:

  listen --forward-to URL [--events TYPE,TYPE]
        forward the test environment's events to a local URL, signed with the
        whsec_ secret printed at start (Standard Webhooks), one line per event
  trigger TYPE
        emit a real event of TYPE in the test environment (e.g. order.created)
  logs tail [--status 4xx|5xx|429] [--key-id KEY_ID]
        the key's API log as it happens (reading a log needs auth:rw)

Options for every command:
  --api-key KEY      the test key (default: $KEYGATE_API_KEY)
  --base-url URL     the gateway (default: $KEYGATE_BASE_URL, else http://localhost:8080)
`;

/** What the CLI may touch: its environment, output streams and an abort signal (Ctrl-C). */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  signal?: AbortSignal;
}

const OPTIONS = {
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  status: { type: 'string' },
  'key-id': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function targetOf(values: { 'api-key'?: string; 'base-url'?: string }, env: CliIo['env']): ApiTarget {
  const baseUrl = values['base-url'] ?? env.KEYGATE_BASE_URL ?? 'http://localhost:8080';
  if (!/^https?:\/\//.test(baseUrl)) throw new CliError(`--base-url must be an http(s) URL, not ${baseUrl}`);
  return { baseUrl, apiKey: assertTestKey(values['api-key'] ?? env.KEYGATE_API_KEY) };
}

/** Runs one invocation; returns the exit code (0, or 2 after an error printed on one line). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const err = (line: string) => io.stderr.write(`${line}\n`);
  try {
    let parsed: ReturnType<
      typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>
    >;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    const { values, positionals } = parsed;
    const [command, ...rest] = positionals;
    if (values.help || command === undefined || command === 'help') {
      io.stdout.write(HELP);
      return command === undefined && !values.help ? 2 : 0;
    }
    if (command === 'listen') {
      const forwardTo = values['forward-to'];
      if (!forwardTo || !/^https?:\/\//.test(forwardTo))
        throw new CliError('listen needs --forward-to http(s)://… (e.g. http://localhost:3000/webhooks)');
      const events = values.events ? new Set(values.events.split(',').map((type) => type.trim())) : null;
      await listen({ target: targetOf(values, io.env), forwardTo, events, out, err, signal: io.signal });
      return 0;
    }
    if (command === 'trigger') {
      const [type] = rest;
      if (!type || rest.length > 1)
        throw new CliError('trigger needs one event type, e.g. trigger order.created');
      const eventId = await triggerEvent(targetOf(values, io.env), type);
      out(`Triggered ${type}: ${eventId}`);
      return 0;
    }
    if (command === 'logs' && rest[0] === 'tail' && rest.length === 1) {
      const status = values.status ?? null;
      if (status !== null && !/^([1-5]xx|[1-5]\d\d)$/.test(status))
        throw new CliError('--status must be a class such as 4xx or a status such as 429');
      await tailLogs({
        target: targetOf(values, io.env),
        keyId: values['key-id'],
        status,
        out,
        signal: io.signal,
      });
      return 0;
    }
    throw new CliError(`unknown command "${positionals.join(' ')}" (see keygate-cli --help)`);
  } catch (error) {
    if (io.signal?.aborted) return 0;
    err(`keygate-cli: ${error instanceof CliError ? error.message : (error as Error).message}`);
    return 2;
  }
}
