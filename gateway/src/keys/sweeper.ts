/** Timer functions, injectable so tests drive the sweeper without waiting. */
export interface SweeperTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface SweeperOptions {
  /** One sweep, e.g. `() => keyService.sweep()`. */
  sweep: () => Promise<unknown>;
  intervalMs: number;
  /** Called with whatever a sweep threw; the sweeper keeps running. */
  onError?: (error: unknown) => void;
  timers?: SweeperTimers;
}

const NODE_TIMERS: SweeperTimers = {
  setInterval(callback, ms) {
    const handle = setInterval(callback, ms);
    handle.unref();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/**
 * Runs `sweep` every `intervalMs` (the timer does not keep the process alive), never two at once:
 * a tick that finds the previous sweep still running is skipped. Returns stop().
 */
export function startSweeper(options: SweeperOptions): () => void {
  const timers = options.timers ?? NODE_TIMERS;
  let running = false;
  const handle = timers.setInterval(() => {
    if (running) return;
    running = true;
    options
      .sweep()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  return () => timers.clearInterval(handle);
}
