import type { PublicKey, PublicSecret } from './types.ts';

/** An old secret without traffic for this long is considered safe to close. */
export const QUIET_MINUTES = 30;

/** How a rotation stands: the new secret, the old one(s) still open, and whether closing is safe. */
export interface RotationState {
  current: PublicSecret;
  old: PublicSecret[];
  /** True when no old secret saw traffic since the rotation or for QUIET_MINUTES. */
  safeToClose: boolean;
  /** One sentence saying why it is or is not safe to close. */
  hint: string;
}

function quietFor(secret: PublicSecret, since: string, nowMs: number): number | null {
  if (!secret.lastCallAt || secret.lastCallAt < since) return null;
  return nowMs - Date.parse(secret.lastCallAt);
}

/** Whether closing an old secret is safe now, and the hint that says why (or why not). */
function judgeOldSecret(
  old: PublicSecret,
  rotatedAt: string,
  nowMs: number,
): { safe: boolean; hint: string } {
  const quiet = quietFor(old, rotatedAt, nowMs);
  if (quiet === null)
    return { safe: true, hint: `Old secret ${old.prefix}: zero calls since the rotation. Safe to close.` };
  const minutes = Math.floor(quiet / 60_000);
  if (minutes >= QUIET_MINUTES)
    return { safe: true, hint: `Old secret ${old.prefix}: quiet for ${minutes} min. Safe to close.` };
  const ago = minutes < 1 ? 'less than a minute ago' : `${minutes} min ago`;
  return {
    safe: false,
    hint: `Old secret ${old.prefix} is still in use (last call ${ago}). Not safe to close yet: wait until it has been quiet for ${QUIET_MINUTES} min.`,
  };
}

/** The rotation state of a key, or null when no rotation is in progress. */
export function rotationState(key: PublicKey, nowMs = Date.now()): RotationState | null {
  if (!key.rotation.inProgress) return null;
  const [current, ...rest] = key.rotation.secrets;
  if (!current) return null;
  const old = rest.filter((secret) => secret.usable);
  if (old.length === 0) return null;
  const verdicts = old.map((secret) => judgeOldSecret(secret, current.createdAt, nowMs));
  return {
    current,
    old,
    safeToClose: verdicts.every((v) => v.safe),
    hint: verdicts.map((v) => v.hint).join(' '),
  };
}
