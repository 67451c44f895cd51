import { type Logger, pino, stdSerializers } from 'pino';

/** Paths pino replaces with `[redacted]`: credentials never reach a log line. */
export const REDACT_PATHS = [
  'authorization',
  'token',
  'secret',
  '*.authorization',
  '*.token',
  '*.secret',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-keygate-identity"]',
  'req.headers["x-keygate-identity"]',
  'err.command',
  '*.command',
];

/**
 * pino's error serializer minus `command`: ioredis attaches the failed command (name and
 * arguments: key JSON, lookups, secret hashes) to its errors, and those must never be logged.
 */
export function serializeError(error: unknown): unknown {
  const serialized = stdSerializers.err(error as Error) as unknown;
  stripCommands(serialized, 0);
  return serialized;
}

function stripCommands(value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object' || depth > 4) return;
  const record = value as Record<string, unknown>;
  delete record.command;
  for (const [name, nested] of Object.entries(record)) {
    if (name !== 'raw') stripCommands(nested, depth + 1);
  }
}

/**
 * The gateway's structured logger. Without a destination it writes to stdout asynchronously: lines
 * written while a write is under way go out together in the next one (under load one system call
 * carries many access lines instead of one each), and pino flushes what is left when the process exits.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: 'keygate-gateway' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
