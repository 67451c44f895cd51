/** Resources a scope can name. `rw` on a resource implies `r`. */
export const RESOURCES = ['order', 'article', 'stock', 'auth', 'customer', 'pricing', 'webhook'] as const;
export type Resource = (typeof RESOURCES)[number];
export type Access = 'r' | 'rw';
/** A scope string such as `article:r` or `order:rw`. */
export type Scope = `${Resource}:${Access}`;

const SCOPE_PATTERN = /^([a-z]+):(r|rw)$/;

/** True when `value` is a well-formed scope on a known resource. */
export function isScope(value: string): value is Scope {
  const match = SCOPE_PATTERN.exec(value);
  return match !== null && (RESOURCES as readonly string[]).includes(match[1]!);
}

/** True when the granted scopes satisfy `required` (`x:rw` satisfies `x:r`). */
export function hasScope(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  return required.endsWith(':r') && granted.includes(`${required}w`);
}

/** True when every scope in `wanted` is covered by `held`. */
export function coversScopes(held: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((scope) => hasScope(held, scope));
}

/** Sorts and deduplicates scopes, dropping `x:r` where `x:rw` is present. */
export function normalizeScopes(scopes: readonly string[]): string[] {
  const set = new Set(scopes);
  return [...set].filter((s) => !(s.endsWith(':r') && set.has(`${s}w`))).sort();
}
