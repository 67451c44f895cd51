import {
  type ClaimDecision,
  decideClaim,
  type IdempotencyRecord,
  runningRecord,
} from '@keygate/contracts/idempotency';
import type { IdempotencyMethods } from '../store/store.ts';

/** Where a claimed request's record lives, and the lease it holds while it runs. */
export interface Claim {
  keyId: string;
  keyHash: string;
  running: IdempotencyRecord;
}

/** Rounds of read-decide-swap before giving up to a writer that keeps winning (reported as in flight). */
const CLAIM_ROUNDS = 3;

/**
 * Decides a keyed request (decideClaim) against the store and, when it is to run, takes the
 * lease with a compare-and-swap, so of two instances (or two calls) racing for one key exactly one
 * runs. A lost swap reads again: the winner's record now decides (in flight, or its answer).
 */
export async function claimIdempotencyKey(
  store: IdempotencyMethods,
  request: { keyId: string; keyHash: string; fingerprint: string },
  nowMs: number,
): Promise<ClaimDecision & { claim?: Claim }> {
  const { keyId, keyHash, fingerprint } = request;
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const current = await store.readIdempotency(keyId, keyHash);
    const decision = decideClaim(current, fingerprint, nowMs);
    if (decision.kind !== 'run') return decision;
    const running = runningRecord(fingerprint, nowMs);
    if (await store.swapIdempotency(keyId, keyHash, current, running, nowMs)) {
      return { ...decision, claim: { keyId, keyHash, running } };
    }
  }
  return { kind: 'in-flight', retryAfterSeconds: 1 };
}

/**
 * Ends a claim: keeps `done` in place of the lease, or (null) drops the lease so the key is free.
 * A lease that lapsed and was taken over meanwhile is left to its new holder.
 */
export async function settleIdempotencyKey(
  store: IdempotencyMethods,
  claim: Claim,
  done: IdempotencyRecord | null,
  nowMs: number,
): Promise<void> {
  await store.swapIdempotency(claim.keyId, claim.keyHash, claim.running, done, nowMs);
}
