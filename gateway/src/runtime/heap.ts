import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ResourceLimits } from 'node:worker_threads';

/**
 * The heap limits of the gateway's worker threads (identity signing, SQLite log writer). V8's
 * semi-space flags are process-wide, so without a limit of their own each worker would get the main
 * thread's young generation too, though a worker keeps few objects alive for long: its young pages
 * would cost resident memory for nothing.
 */
export const WORKER_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 6 };

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Collects, once and synchronously, the garbage of starting up, returning its pages to the system.
 * Loading the modules makes far more short-lived objects than the gateway keeps (Node's module
 * loader reads a package's package.json once per file it loads, and drizzle-orm's is large and
 * holds hundreds of files), and V8 keeps the heap it grew for them: a started, idle gateway would
 * otherwise hold about twice the resident memory it needs. Call it before listening: it stops the
 * event loop while it runs. `gc` is taken from a context of its own, so the gateway's global scope
 * never gains one.
 */
export function releaseStartupGarbage(): void {
  setFlagsFromString('--expose-gc');
  let gc: GcFunction;
  try {
    gc = runInNewContext('gc') as GcFunction;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  // 'last-resort' is V8's memory-reducing collection: it also shrinks the young generation and
  // gives back the old generation's free pages, which a regular full collection keeps.
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
