import type { Problem } from './api.ts';

/**
 * Groups a validation problem's `errors` by form field: a pointer belongs to the field whose
 * pointer it equals or starts with (`/ipAllowlist/2` → `/ipAllowlist`). Unmatched ones go to ''.
 */
export function groupFieldErrors(
  problem: Problem | null,
  fields: readonly string[],
): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const error of problem?.errors ?? []) {
    const field = fields.find((f) => error.pointer === f || error.pointer.startsWith(`${f}/`)) ?? '';
    const index = /\/(\d+)$/.exec(error.pointer)?.[1];
    const detail =
      field && index !== undefined && field !== error.pointer
        ? `entry ${Number(index) + 1}: ${error.detail}`
        : error.detail;
    grouped[field] = [...(grouped[field] ?? []), detail];
  }
  return grouped;
}

/** The id of a field's error element, for aria-describedby. */
export function errorId(formId: string, field: string): string {
  return `${formId}-${field.replaceAll('/', '-').replace(/^-/, '')}-error`;
}
