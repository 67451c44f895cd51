import { decodeRecord, encodeRecord } from '@keygate/contracts/idempotency';
import type { IdempotencyMethods } from '../store.ts';
import type { RedisStoreContext } from './writes.ts';

/**
 * Idempotency-Key records on Redis: one string per record in the key's slot group (so one slot on
 * a Cluster), expiring by itself at the end of its retention; a swap is one script.
 */
export function createRedisIdempotency(ctx: RedisStoreContext): IdempotencyMethods {
  const nameOf = (keyId: string, keyHash: string) => ctx.layout.forKey(keyId).idempotency(keyId, keyHash);
  return {
    async readIdempotency(keyId, keyHash) {
      const text = await ctx.client.get(nameOf(keyId, keyHash));
      return text === null ? null : decodeRecord(text);
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
