import { encodeRecord } from '@keygate/contracts/idempotency';
import type { IdempotencySettle } from '../../model/model.ts';
import type { RedisKeyLayout, RedisKeyNames } from './keys.ts';
import type { RedisScripts } from './scripts.ts';

/** What the helpers here need of the store's context (writes.ts's RedisStoreContext has it). */
interface SettleContext {
  layout: RedisKeyLayout;
  scripts: Pick<RedisScripts, 'markIdempotencyTarget' | 'swapIdempotency'>;
}

/*
 * An Idempotency-Key record written by the script of the change it answers (a key, plan or
 * identity write), so the change and its record commit together or not at all. A script takes
 * the record's name among its KEYS and three ARGV: the text expected there now ('-': the write
 * carries no record; '': there must be none), the text to put and its TTL in ms. It checks with
 * `settleHolds` before its first write and writes with `settleWrite` (settle-lua.ts).
 *
 * On a Cluster the record of a caller key whose slot group is not the script's cannot be among its
 * KEYS: the script commits it under the caller's record name of its own group, fresh, and
 * `withSettle` first notes that name beside the caller's lease (`:target`), only while the lease is
 * still the one expected; readIdempotency follows it while the caller's copy is still the lease,
 * and after the commit the record replaces the lease there too. Only a lease lapsing (a minute)
 * between that mark and the script, one round trip, escapes the check.
 */

const ttlOf = (settle: IdempotencySettle) => Math.max(1, settle.next.expiresAt - settle.nowMs);

/** True when the record of `settle` lives in another slot group than `names` (Cluster only). */
function isApart(ctx: SettleContext, settle: IdempotencySettle | undefined, names: RedisKeyNames) {
  return settle !== undefined && ctx.layout.forKey(settle.keyId) !== names;
}

/**
 * The record's name (for KEYS; `placeholder`, a name of the group, when there is no record) and
 * its three ARGV, for a script running in the group of `names`.
 */
export function settleParts(
  ctx: SettleContext,
  settle: IdempotencySettle | undefined,
  names: RedisKeyNames,
  placeholder: string,
): { name: string; args: [string, string, number] } {
  if (!settle) return { name: placeholder, args: ['-', '', 0] };
  const expected = isApart(ctx, settle, names) ? '' : encodeRecord(settle.expected);
  return {
    name: names.idempotency(settle.keyId, settle.keyHash),
    args: [expected, encodeRecord(settle.next), ttlOf(settle)],
  };
}

/**
 * Runs `write` (a script in the group of `names` taking settleParts) with the Cluster steps around
 * it when the record's home is another group: the mark before (false, writing nothing, when the
 * lease is no longer the one expected) and the copy into the caller's group after.
 */
export async function withSettle(
  ctx: SettleContext,
  settle: IdempotencySettle | undefined,
  names: RedisKeyNames,
  write: () => Promise<boolean>,
): Promise<boolean> {
  if (!settle || !isApart(ctx, settle, names)) return write();
  const home = ctx.layout.forKey(settle.keyId);
  const record = home.idempotency(settle.keyId, settle.keyHash);
  const marked = await ctx.scripts.markIdempotencyTarget(
    2,
    record,
    home.idempotencyTarget(settle.keyId, settle.keyHash),
    encodeRecord(settle.expected),
    names.idempotency(settle.keyId, settle.keyHash),
    ttlOf(settle),
  );
  if (marked !== 1) return false;
  const written = await write();
  if (written) {
    await ctx.scripts
      .swapIdempotency(1, record, encodeRecord(settle.expected), encodeRecord(settle.next), ttlOf(settle))
      // Committed in the write's group already, where readers find it through `:target`.
      .catch(() => 0);
  }
  return written;
}
