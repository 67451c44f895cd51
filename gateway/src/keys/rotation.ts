import { GatewayError } from '../errors.ts';
import { currentSecretOf, DAY_MS, expiryEndMs, openOldSecrets } from '../model/lifecycle.ts';
import type { SecretRecord } from '../model/model.ts';
import type { ChangePlan, KeyState } from './change-runner.ts';
import { OVERLAP_DAYS_MAX } from './key-input.ts';
import { snapshotSecret } from './public-key.ts';
import { newId } from './token.ts';

/** A freshly generated token's stored parts. */
export interface NewSecret {
  lookup: string;
  prefix: string;
  hash: string;
  /** The token's keyed tag, when the hasher makes one. */
  tag?: string | null;
}

/** The record of a new, open secret. */
export function newSecretRecord(keyId: string, secret: NewSecret, at: string): SecretRecord {
  return {
    id: newId('sec'),
    keyId,
    lookup: secret.lookup,
    prefix: secret.prefix,
    hash: secret.hash,
    tag: secret.tag ?? null,
    createdAt: at,
    closesAt: null,
    closedAt: null,
    closedReason: null,
    callCount: 0,
    lastCallAt: null,
  };
}

/**
 * The change a rotation makes: the new secret becomes current; the old one closes at
 * `now + min(overlapDays, maxOverlapDays, 7)` days, never after the key's expiry end; for 0 its
 * `closesAt` is now, so it stops at once (the caller then closes it by hand, logging that).
 * Refused with 409 ROTATION_IN_PROGRESS while an older secret is still open.
 */
export function planRotation(
  { key, secrets }: KeyState,
  nowMs: number,
  options: { secret: NewSecret; overlapDays: number; maxOverlapDays: number },
): ChangePlan {
  const open = openOldSecrets(key, secrets, nowMs)[0];
  if (open) {
    throw new GatewayError(
      'ROTATION_IN_PROGRESS',
      `Secret ${open.prefix} is still open until ${open.closesAt}; close it before rotating again.`,
      { secretId: open.id, closesAt: open.closesAt },
    );
  }
  const at = new Date(nowMs).toISOString();
  const days = Math.min(options.overlapDays, options.maxOverlapDays, OVERLAP_DAYS_MAX);
  const endMs = Math.min(nowMs + days * DAY_MS, key.expiresAt ? expiryEndMs(key.expiresAt) : Infinity);
  const current = currentSecretOf(key, secrets);
  const old: SecretRecord | null = current && { ...current, closesAt: new Date(endMs).toISOString() };
  const fresh = newSecretRecord(key.id, options.secret, at);
  const changed = old ? [fresh, old] : [fresh];
  return {
    key: { ...key, prefix: fresh.prefix },
    secrets: changed,
    action: 'key.rotated',
    before: { prefix: key.prefix, secrets: current ? [snapshotSecret(current)] : [] },
    after: { prefix: fresh.prefix, secrets: changed.map(snapshotSecret) },
    details: { secretId: fresh.id, previousSecretId: current?.id ?? null, overlapDays: days },
  };
}
