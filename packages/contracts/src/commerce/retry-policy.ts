/** The default retry policy of webhook deliveries (applied in commerce/src/webhooks/retry-policy.ts). */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;

export const DEFAULT_JITTER_RATIO = 0.2;

export const DEFAULT_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

export const DEFAULT_MAX_RETRY_AFTER_MS = 24 * 3_600_000;
