import assert from 'node:assert/strict';
import { doneRecord, type IdempotencyRecord, runningRecord } from '@keygate/contracts/idempotency';
import type { NewAlertEvent } from '../src/model/alert-store.ts';
import type { ApiKey, IdempotencySettle, KeyChange } from '../src/model/model.ts';
import { slotGroupOf } from '../src/store/redis/keys.ts';
import type { KeyStore } from '../src/store/store.ts';
import { makeActivity, makeKey, makeSecret, type StoreFixture } from './store.contract.ts';
import { makeIdentity, makePlan } from './store-budget.contract.ts';

let counter = 0;
const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: 'sealed' };

/** A caller key id whose Redis Cluster slot group differs from `keyId`'s (any id does elsewhere). */
function callerApartFrom(keyId: string): string {
  for (let n = 0; ; n++) {
    const id = `key_caller${++counter}x${n}`;
    if (slotGroupOf(id) !== slotGroupOf(keyId)) return id;
  }
}

function alertOf(change: Pick<KeyChange, 'key' | 'activity'>): NewAlertEvent {
  const id = `evt_${change.activity.id}`;
  return {
    id,
    type: 'key.created',
    dedupeKey: `activity:${change.activity.id}`,
    identityId: null,
    body: JSON.stringify({ id, type: 'key.created', data: { keyId: change.key.id } }),
    createdAt: change.activity.at,
    deliverAt: Date.now(),
  };
}

/**
 * A key change committed with the request's Idempotency-Key record and its alert events, as every
 * KeyStore backend must keep them: all of it or none (issues #45, #47). The outbox is read after
 * `relayAlerts`, which a store that parks alerts near the key (Redis) needs and the others lack.
 */
export function describeCommitCompanionsContract(
  current: () => { fixture: StoreFixture; store: KeyStore },
): void {
  describe('a key change with its idempotency record and alerts', () => {
    /** A lease held by `callerId` under a fresh key hash, and the settle that ends it with an answer. */
    async function lease(store: KeyStore, callerId: string): Promise<IdempotencySettle> {
      const keyHash = `hash-commit-${++counter}`;
      const now = Date.now();
      const running = runningRecord('fp', now);
      assert.equal(await store.swapIdempotency(callerId, keyHash, null, running, now), true);
      return { keyId: callerId, keyHash, expected: running, next: doneRecord('fp', answer, now), nowMs: now };
    }
    const create = (key: ApiKey): KeyChange => {
      const change = {
        key,
        expectedVersion: null,
        secrets: [makeSecret(key.id)],
        activity: makeActivity(key),
      };
      return { ...change, alerts: [alertOf(change)] };
    };
    async function eventsAfter(cursor: string): Promise<string[]> {
      const { fixture, store } = current();
      await store.relayAlerts?.();
      return (await fixture.alerts.listEvents(cursor, 100)).map((event) => event.body);
    }

    it('writes the change, its record in place of the lease and its alert, together', async () => {
      const { fixture, store } = current();
      const cursor = await fixture.alerts.latestEventCursor();
      const key = makeKey();
      const settle = await lease(store, 'key_caller');
      const change = { ...create(key), idempotency: settle };
      assert.equal(await store.commitChange(change), true);
      assert.deepEqual(await store.getKey(key.id), key);
      assert.deepEqual(await store.readIdempotency('key_caller', settle.keyHash), settle.next);
      assert.deepEqual(
        await eventsAfter(cursor),
        change.alerts?.map((event) => event.body),
      );
    });

    it('writes none of it on a version conflict: the lease stays, no alert', async () => {
      const { fixture, store } = current();
      const key = makeKey();
      assert.equal(await store.commitChange({ ...create(key), alerts: [] }), true);
      const cursor = await fixture.alerts.latestEventCursor();
      const settle = await lease(store, 'key_caller');
      const renamed = { ...key, name: 'renamed', version: 3 };
      const stale: KeyChange = {
        ...create(renamed),
        expectedVersion: 2,
        secrets: [],
        idempotency: settle,
      };
      assert.equal(await store.commitChange(stale), false);
      assert.equal((await store.getKey(key.id))?.name, key.name);
      assert.deepEqual(await store.readIdempotency('key_caller', settle.keyHash), settle.expected);
      assert.deepEqual(await eventsAfter(cursor), []);
    });

    it('writes none of it when the lease was taken over meanwhile', async () => {
      const { fixture, store } = current();
      const cursor = await fixture.alerts.latestEventCursor();
      const settle = await lease(store, 'key_caller');
      const now = Date.now() + 61_000;
      const takenOver: IdempotencyRecord = runningRecord('fp', now);
      assert.equal(
        await store.swapIdempotency('key_caller', settle.keyHash, settle.expected, takenOver, now),
        true,
      );
      const key = makeKey();
      assert.equal(await store.commitChange({ ...create(key), idempotency: settle }), false);
      assert.equal(await store.getKey(key.id), null);
      assert.deepEqual(await store.readIdempotency('key_caller', settle.keyHash), takenOver);
      assert.deepEqual(await eventsAfter(cursor), []);
    });

    it('writes a plan with its record, and neither when the plan’s version moved on', async () => {
      const { store } = current();
      const plan = makePlan();
      const created = await lease(store, 'key_caller');
      assert.equal(await store.createPlan(plan, created), true);
      assert.deepEqual(await store.readIdempotency('key_caller', created.keyHash), created.next);
      const updated = await lease(store, 'key_caller');
      const renamed = { ...plan, name: 'Renamed', version: 3 };
      assert.equal(await store.updatePlan(renamed, 2, updated), false);
      assert.equal((await store.getPlan(plan.id))?.name, plan.name);
      assert.deepEqual(await store.readIdempotency('key_caller', updated.keyHash), updated.expected);
      assert.equal(await store.updatePlan({ ...renamed, version: 2 }, 1, updated), true);
      assert.deepEqual(await store.readIdempotency('key_caller', updated.keyHash), updated.next);
    });

    it('writes an identity with its record, and neither once the lease was taken over', async () => {
      const { store } = current();
      const settle = await lease(store, 'key_caller');
      const now = Date.now() + 61_000;
      const takenOver = runningRecord('fp', now);
      await store.swapIdempotency('key_caller', settle.keyHash, settle.expected, takenOver, now);
      const identity = makeIdentity();
      assert.equal(await store.createIdentity({ identity }, settle), false);
      assert.equal(await store.getIdentity(identity.id), null);
      assert.equal(await store.findIdentityByExternalId('live', identity.externalId), null);
      const fresh = await lease(store, 'key_caller');
      assert.equal(await store.createIdentity({ identity }, fresh), true);
      assert.deepEqual(await store.readIdempotency('key_caller', fresh.keyHash), fresh.next);
    });

    it('keeps the record readable under the caller when the caller key lives in another slot group', async () => {
      const { fixture, store } = current();
      const key = makeKey();
      const callerId = callerApartFrom(key.id);
      const settle = await lease(store, callerId);
      assert.equal(await store.commitChange({ ...create(key), idempotency: settle }), true);
      assert.deepEqual(await store.readIdempotency(callerId, settle.keyHash), settle.next);
      const peer = await fixture.openPeer();
      try {
        assert.deepEqual(await peer.readIdempotency(callerId, settle.keyHash), settle.next);
      } finally {
        await peer.close();
      }
    });
  });
}
