/** The window every per-key limit counts over, in seconds. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
