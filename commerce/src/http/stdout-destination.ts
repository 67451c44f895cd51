import { boundFlushSync, stdoutFd } from '@keygate/contracts/stdout';
import { pino } from 'pino';

/** The log stream main.ts hands pino: what it writes and what flushes it when the process exits. */
export type StdoutDestination = ReturnType<typeof pino.destination>;

/**
 * Log lines to stdout (or `fd`), each written asynchronously as it comes, as pino's default
 * destination does, but with an exit flush that ends whatever stdout does (see boundFlushSync).
 * pino stops writing once the EPIPE of an asynchronous write reaches it, but a line logged while
 * that write is still in the thread pool ("stopped", just before the exit) is left for the exit
 * flush, which without that bound would retry it forever.
 */
export function createStdoutDestination(fd = stdoutFd()): StdoutDestination {
  const destination = pino.destination({ dest: fd, sync: false });
  boundFlushSync(destination, fd);
  return destination;
}
