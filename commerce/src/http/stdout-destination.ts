import fs from 'node:fs';
import { pino } from 'pino';

/** The log stream main.ts hands pino: what it writes and what flushes it when the process exits. */
export type StdoutDestination = ReturnType<typeof pino.destination>;

/** How long the synchronous flush (at exit) may wait on a full pipe before the rest is dropped. */
const FLUSH_SYNC_LIMIT_MS = 1000;

/**
 * Log lines to stdout (or `fd`), each written asynchronously as it comes, as pino's default
 * destination does, but with an exit flush that ends whatever stdout does.
 *
 * pino flushes an asynchronous destination synchronously from the process's `exit` event, after
 * `process.exit()`: no timer or signal handler runs any more. sonic-boom's `flushSync` retries a
 * failed write every 100 ms until it succeeds; on EPIPE (the reader went away) that is forever. pino
 * stops writing once the EPIPE of an asynchronous write reaches it, but a line logged while that
 * write is still in the thread pool ("stopped", just before the exit) is left for the exit flush,
 * and the process never exits. Here a write to `fd` during `flushSync` that fails with anything but
 * EAGAIN, or with EAGAIN past a limit, counts as written: nobody can read those lines anyway.
 * (The gateway's stdout destination does the same; see gateway/src/http/logger.ts.)
 */
export function createStdoutDestination(fd = stdoutFd()): StdoutDestination {
  const destination = pino.destination({ dest: fd, sync: false });
  boundFlushSync(destination, fd);
  return destination;
}

/**
 * stdout's descriptor, read from `process.stdout` as pino's default destination does: setting that
 * stream up makes a pipe non-blocking, so a reader that stops reading costs an EAGAIN (bounded in
 * the exit flush) instead of a write that blocks the process for as long as the reader sleeps.
 */
function stdoutFd(): number {
  return process.stdout.fd;
}

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
