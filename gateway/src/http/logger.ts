import { boundFlushSync, stdoutFd } from '@keygate/contracts/stdout';
import { type DestinationStream, type Logger, pino, stdSerializers } from 'pino';

/** Paths pino replaces with `[redacted]`: credentials never reach a log line. */
export const REDACT_PATHS = [
  'authorization',
  'token',
  'secret',
  '*.authorization',
  '*.token',
  '*.secret',
  'req.headers.authorization',
  'password',
  '*.password',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers["set-cookie"]',
  'headers["x-csrf-token"]',
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

/** Buffered stdout lines leave at the latest this often (ms), however few there are. */
const STDOUT_FLUSH_MS = 200;
/** Lines beyond this much unwritten output (a stalled log collector) are dropped, not held in memory. */
const STDOUT_MAX_BUFFERED = 16 * 1024 * 1024;

/**
 * The server's stdout (or `fd`) for log lines: buffered up to 12 KiB (one write and one wake-up of
 * the reader for ~35 access lines instead of one each; sonic-boom wants it below its 16 KiB
 * maxWrite), written asynchronously, flushed at least every 200 ms without fsync and, by pino,
 * when the process exits; at most 16 MiB held.
 */
export function createStdoutDestination(fd = stdoutFd()): ReturnType<typeof pino.destination> {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    minLength: 12 * 1024,
    periodicFlush: STDOUT_FLUSH_MS,
    maxLength: STDOUT_MAX_BUFFERED,
  });
  boundFlushSync(destination, fd);
  return destination;
}

/** The gateway's structured logger, to `destination` (default: stdout, written synchronously). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'keygate-gateway' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
