import type { System } from './system.ts';

/** The statuses of `count` calls made `concurrency` at a time (keep-alive fetch); bodies are read. */
export async function burst(
  count: number,
  concurrency: number,
  call: (index: number) => Promise<Response>,
): Promise<number[]> {
  const statuses: number[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const res = await call(index);
      await res.arrayBuffer();
      statuses[index] = res.status;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return statuses;
}

/** How many of each status. */
export function tally(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** One call of running traffic: which gateway, which key label, when it was sent, what came back (-1: no answer). */
export interface Sample {
  instance: number;
  label: string;
  sentAt: number;
  status: number;
}

/**
 * Steady traffic on every gateway of `system`: per gateway and key, one call after another with a
 * short pause between, until `stop()`; every call is kept as a Sample.
 */
export function startTraffic(
  system: System,
  keys: ReadonlyArray<{ label: string; secret: string; path: string }>,
  pauseMs = 20,
): { samples: Sample[]; stop(): Promise<void> } {
  const samples: Sample[] = [];
  let running = true;
  const loop = async (instance: number, key: { label: string; secret: string; path: string }) => {
    while (running) {
      const sentAt = Date.now();
      let status = -1;
      try {
        const res = await system.callOn(instance, key.secret, key.path);
        await res.arrayBuffer();
        status = res.status;
      } catch {
        // no answer at all: recorded as -1
      }
      samples.push({ instance, label: key.label, sentAt, status });
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  const loops = system.gateways.flatMap((_, instance) => keys.map((key) => loop(instance, key)));
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** How `waitUntil` polls. */
export interface WaitOptions {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Pause between checks (default 50 ms). */
  intervalMs?: number;
  /** Treat a check that throws (e.g. a failed assertion) as "not yet"; on timeout its last error is the cause. */
  retryErrors?: boolean;
}

/**
 * Polls `check` until it returns true; throws with `what` after the timeout (a number is the
 * timeout in ms, as before). Without `retryErrors` an error thrown by `check` ends the wait at once.
 */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  options: number | WaitOptions = {},
): Promise<void> {
  const {
    timeoutMs = 15_000,
    intervalMs = 50,
    retryErrors = false,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      if (!retryErrors) throw error;
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}${why}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
