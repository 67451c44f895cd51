import assert from 'node:assert/strict';
import {
  doneRecord,
  IDEMPOTENCY_RETENTION_MS,
  type IdempotencyRecord,
  runningRecord,
} from '@keygate/contracts/idempotency';
import type { KeyStore } from '../src/store/store.ts';
import { eventually, type StoreFixture } from './store.contract.ts';

let counter = 0;
const keyHash = () => `hash-${++counter}`;
const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: 'sealed' };

/**
 * Idempotency-Key records as every KeyStore backend must keep them: a compare-and-swap per
 * (API key id, key hash), so two instances never both run a request, and expiry after retention.
 */
export function describeIdempotencyContract(current: () => { fixture: StoreFixture; store: KeyStore }): void {
  describe('idempotency records', () => {
    it('claims an unused key once: the second claim of the same key loses', async () => {
      const { store } = current();
      const hash = keyHash();
      const now = Date.now();
      assert.equal(await store.readIdempotency('key_a', hash), null);
      const running = runningRecord('fp-1', now);
      assert.equal(await store.swapIdempotency('key_a', hash, null, running, now), true);
      assert.equal(await store.swapIdempotency('key_a', hash, null, runningRecord('fp-2', now), now), false);
      assert.deepEqual(await store.readIdempotency('key_a', hash), running);
    });

    it('replaces a record only while it is still the one expected', async () => {
      const { store } = current();
      const hash = keyHash();
      const now = Date.now();
      const running = runningRecord('fp', now);
      const done = doneRecord('fp', answer, now + 5);
      await store.swapIdempotency('key_a', hash, null, running, now);
      assert.equal(await store.swapIdempotency('key_a', hash, running, done, now + 5), true);
      assert.equal(await store.swapIdempotency('key_a', hash, running, null, now + 6), false);
      assert.deepEqual(await store.readIdempotency('key_a', hash), done);
      assert.equal(await store.swapIdempotency('key_a', hash, done, null, now + 7), true);
      assert.equal(await store.readIdempotency('key_a', hash), null);
    });

    it('keeps the records of two API keys apart, even under the same key hash', async () => {
      const { store } = current();
      const hash = keyHash();
      const now = Date.now();
      const ofA = doneRecord('fp-a', answer, now);
      assert.equal(await store.swapIdempotency('key_a', hash, null, ofA, now), true);
      assert.equal(await store.readIdempotency('key_b', hash), null);
      assert.equal(await store.swapIdempotency('key_b', hash, null, runningRecord('fp-b', now), now), true);
      assert.deepEqual(await store.readIdempotency('key_a', hash), ofA);
    });

    it('is seen, and its swaps too, through another connection', async () => {
      const { fixture, store } = current();
      const peer = await fixture.openPeer();
      try {
        const hash = keyHash();
        const now = Date.now();
        const running = runningRecord('fp', now);
        await store.swapIdempotency('key_a', hash, null, running, now);
        assert.equal(await peer.swapIdempotency('key_a', hash, null, running, now), false);
        assert.deepEqual(await peer.readIdempotency('key_a', hash), running);
      } finally {
        await peer.close();
      }
    });

    it('lets a record go once its retention has passed (pruned, or expired by the store)', async () => {
      const { store } = current();
      const hash = keyHash();
      const now = Date.now();
      // A record written a whole retention ago but for 50 ms.
      const old: IdempotencyRecord = { ...doneRecord('fp', answer, now), expiresAt: now + 50 };
      const kept = doneRecord('fp', answer, now);
      await store.swapIdempotency('key_a', hash, null, old, now);
      await store.swapIdempotency('key_b', hash, null, kept, now);
      assert.ok(
        await eventually(async () => {
          await store.pruneIdempotency(Date.now());
          return (await store.readIdempotency('key_a', hash)) === null;
        }),
      );
      assert.deepEqual(await store.readIdempotency('key_b', hash), kept);
      assert.ok(kept.expiresAt >= now + IDEMPOTENCY_RETENTION_MS);
    });
  });
}
