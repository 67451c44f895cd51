import type { ExpiryReminder } from '@keygate/contracts/gateway';
import type { ApiKey, SecretRecord } from './model.ts';

export type { ExpiryReminder };

export const DAY_MS = 86_400_000;

/** Epoch ms of the first instant after the last valid day `expiresAt` (YYYY-MM-DD, valid through that day UTC). */
export function expiryEndMs(expiresAt: string): number {
  return Date.parse(`${expiresAt}T00:00:00.000Z`) + DAY_MS;
}

/** True once the key's last valid day (UTC) is over. A key without `expiresAt` never expires. */
export function isKeyExpired(key: Pick<ApiKey, 'expiresAt'>, nowMs: number): boolean {
  return key.expiresAt !== null && nowMs >= expiryEndMs(key.expiresAt);
}

/** True when a secret may authenticate now: not closed, and its overlap end (if any) not reached. */
export function isSecretUsable(secret: Pick<SecretRecord, 'closedAt' | 'closesAt'>, nowMs: number): boolean {
  return secret.closedAt === null && (secret.closesAt === null || nowMs < Date.parse(secret.closesAt));
}

/**
 * The expiry reminder for a key whose end is at most `leadDays` away (and not yet reached), else
 * null. The data plane may send it as a response header (e.g. `Keygate-Key-Expires: 2025-03-01; days-left=3`).
 */
export function expiryReminder(
  key: Pick<ApiKey, 'expiresAt'>,
  nowMs: number,
  leadDays: number,
): ExpiryReminder | null {
  if (key.expiresAt === null) return null;
  const remaining = expiryEndMs(key.expiresAt) - nowMs;
  if (remaining <= 0 || remaining > leadDays * DAY_MS) return null;
  return { expiresAt: key.expiresAt, daysLeft: Math.ceil(remaining / DAY_MS) };
}

/** The secret the key currently hands out (its prefix is the key's prefix), or null. */
export function currentSecretOf(
  key: Pick<ApiKey, 'prefix'>,
  secrets: readonly SecretRecord[],
): SecretRecord | null {
  return secrets.find((secret) => secret.prefix === key.prefix) ?? null;
}

/** Older secrets that still authenticate: a rotation is in progress while there is one. */
export function openOldSecrets(
  key: Pick<ApiKey, 'prefix'>,
  secrets: readonly SecretRecord[],
  nowMs: number,
): SecretRecord[] {
  return secrets.filter((secret) => secret.prefix !== key.prefix && isSecretUsable(secret, nowMs));
}

/** Today's date in UTC as YYYY-MM-DD. */
export function utcDate(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}
