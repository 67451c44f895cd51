/** Longest usage range one query may span. */
export const MAX_USAGE_RANGE_MS = 31 * 86_400_000;
