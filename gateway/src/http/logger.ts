import fs from 'node:fs';
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

/**
 * stdout's descriptor, read from `process.stdout` as pino's default destination does: setting that
 * stream up makes a pipe non-blocking, so a reader that stops reading costs an EAGAIN (bounded in
 * the exit flush) instead of a write that blocks the process for as long as the reader sleeps. With
 * fd 1 taken as inherited, a blocking pipe, the gateway exited in bounded time only while some
 * other code (starting a worker thread) happened to set `process.stdout` up first.
 */
function stdoutFd(): number {
  return process.stdout.fd;
}

/** How long the synchronous flush (at exit) may wait on a full pipe before the rest is dropped. */
const FLUSH_SYNC_LIMIT_MS = 1000;

/**
 * Makes the destination's `flushSync` (which pino also calls when the process exits) end whatever
 * stdout does. sonic-boom's loop retries every failed write: on EPIPE (the reader went away) it
 * spins forever, and the process never exits. Here a write to `fd` that fails with anything but
 * EAGAIN, or with EAGAIN past the limit, counts as written: nobody can read those lines anyway.
 */
function boundFlushSync(destination: { flushSync(): void }, fd: number): void {
  const flushSync = destination.flushSync.bind(destination);
  destination.flushSync = () => {
    const writeSync = fs.writeSync;
    const deadline = Date.now() + FLUSH_SYNC_LIMIT_MS;
    fs.writeSync = ((target: number, data: string | NodeJS.ArrayBufferView, ...rest: never[]) => {
      try {
        return writeSync(target, data as string, ...rest);
      } catch (error) {
        if (target !== fd) throw error;
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN' && Date.now() < deadline) throw error;
        return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
      }
    }) as typeof fs.writeSync;
    try {
      flushSync();
    } finally {
      fs.writeSync = writeSync;
    }
  };
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
