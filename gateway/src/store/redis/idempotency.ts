import { decodeRecord, encodeRecord } from '@keygate/contracts/idempotency';
import type { IdempotencyMethods } from '../store.ts';
import type { RedisStoreContext } from './writes.ts';

/**
 * Idempotency-Key records on Redis: one string per record in the key's slot group (so one slot on
 * a Cluster), expiring by itself at the end of its retention; a swap is one script. A record a key
 * change committed in another group (see settle.ts) is read there while the caller's
 * own copy is still the lease.
 */
export function createRedisIdempotency(ctx: RedisStoreContext): IdempotencyMethods {
  const nameOf = (keyId: string, keyHash: string) => ctx.layout.forKey(keyId).idempotency(keyId, keyHash);
  return {
    async readIdempotency(keyId, keyHash) {
      const text = await ctx.client.get(nameOf(keyId, keyHash));
      if (text === null) return null;
      const record = decodeRecord(text);
      if (record.state !== 'running' || ctx.layout.groups.length === 1) return record;
      const target = await ctx.client.get(ctx.layout.forKey(keyId).idempotencyTarget(keyId, keyHash));
      if (target === null) return record;
      const committed = await ctx.client.get(target);
      return committed === null ? record : decodeRecord(committed);
    },
    async swapIdempotency(keyId, keyHash, expected, next, nowMs) {
      const swapped = await ctx.scripts.swapIdempotency(
        1,
        nameOf(keyId, keyHash),
        expected === null ? '' : encodeRecord(expected),
        next === null ? '' : encodeRecord(next),
        next === null ? 0 : next.expiresAt - nowMs,
      );
      return swapped === 1;
    },
    async pruneIdempotency() {
      return 0;
    },
  };
}
