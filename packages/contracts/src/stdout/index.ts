// What the gateway and commerce share about writing their logs to stdout: which descriptor to
// write to, and an exit flush that ends whatever the reader of stdout does.
import fs from 'node:fs';

/**
 * stdout's descriptor, read from `process.stdout` as pino's default destination does: setting that
 * stream up makes a pipe non-blocking, so a reader that stops reading costs an EAGAIN (bounded in
 * the exit flush) instead of a write that blocks the process for as long as the reader sleeps. fd 1
 * taken as inherited is a blocking pipe: the gateway exited in bounded time only while some other
 * code (starting a worker thread) happened to set `process.stdout` up first.
 */
export function stdoutFd(): number {
  return process.stdout.fd;
}

/** How long the synchronous flush (at exit) may wait on a full pipe before the rest is dropped. */
const FLUSH_SYNC_LIMIT_MS = 1000;

/**
 * Makes the destination's `flushSync` (which pino also calls when the process exits) end whatever
 * stdout does. pino flushes an asynchronous destination synchronously from the process's `exit`
 * event, when no timer or signal handler runs any more, and sonic-boom's `flushSync` retries a
 * failed write every 100 ms until it succeeds: on EPIPE (the reader went away) that is forever, and
 * the process never exits. Here a write to `fd` during `flushSync` that fails with anything but
 * EAGAIN, or with EAGAIN past a limit, counts as written: nobody can read those lines anyway.
 */
export function boundFlushSync(destination: { flushSync(): void }, fd: number): void {
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
