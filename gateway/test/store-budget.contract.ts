import assert from 'node:assert/strict';
import type { Identity, Plan } from '../src/model/budget.ts';
import { InvalidCursorError } from '../src/store/cursor.ts';
import type { KeyStore } from '../src/store/store.ts';
import {
  iso,
  makeActivity,
  makeKey,
  makeSecret,
  type StoreFixture,
  seedKey,
  update,
} from './store.contract.ts';

let counter = 0;
const uid = (prefix: string) => `${prefix}_b${(++counter).toString().padStart(6, '0')}`;

export function makePlan(over: Partial<Plan> = {}): Plan {
  return {
    id: uid('plan'),
    name: 'Pro',
    limits: [{ name: 'minute', window: 'minute', limit: 100 }],
    quotas: [{ period: 'month', limit: 10_000 }],
    credits: { refill: { interval: 'monthly', amount: 500, day: 1 } },
    createdAt: iso(0),
    updatedAt: iso(0),
    version: 1,
    ...over,
  };
}

export function makeIdentity(over: Partial<Identity> = {}): Identity {
  return {
    id: uid('idt'),
    externalId: uid('cus'),
    environment: 'live',
    planId: null,
    meta: { tier: 'gold', seats: 3 },
    limits: [],
    quotas: [],
    credits: null,
    createdAt: iso(0),
    updatedAt: iso(0),
    version: 1,
    ...over,
  };
}

/** Plans and identities as every KeyStore backend must keep them. */
export function describeBudgetConfigContract(
  current: () => { fixture: StoreFixture; store: KeyStore },
): void {
  describe('plans', () => {
    it('stores a plan, reads it back and lists plans newest first', async () => {
      const { store } = current();
      const older = makePlan({ createdAt: iso(0) });
      const newer = makePlan({ createdAt: iso(1000), credits: null, quotas: [] });
      assert.equal(await store.createPlan(older), true);
      assert.equal(await store.createPlan(newer), true);
      assert.equal(await store.createPlan(older), false, 'an existing id was created again');
      assert.deepEqual(await store.getPlan(older.id), older);
      assert.deepEqual(await store.listPlans(), [newer, older]);
      assert.equal(await store.getPlan('plan_missing'), null);
    });

    it('updates a plan only at the expected version', async () => {
      const { store } = current();
      const plan = makePlan();
      await store.createPlan(plan);
      const next = { ...plan, name: 'Pro 2', limits: [], version: 2, updatedAt: iso(5000) };
      assert.equal(await store.updatePlan(next, 2), false);
      assert.equal(await store.updatePlan(next, 1), true);
      assert.deepEqual(await store.getPlan(plan.id), next);
      assert.equal(await store.updatePlan({ ...next, version: 3 }, 1), false, 'a stale version was applied');
      assert.equal(await store.updatePlan(makePlan(), 1), false, 'a missing plan was updated');
    });

    it('refuses to delete a plan a key names until the key leaves it', async () => {
      const { store } = current();
      const plan = makePlan();
      await store.createPlan(plan);
      const { key } = await seedKey(store, { planId: plan.id });
      assert.equal(await store.deletePlan(plan.id), 'in_use');
      assert.equal(await store.commitChange(update(key, { planId: null })), true);
      assert.equal(await store.deletePlan(plan.id), 'deleted');
      assert.equal(await store.getPlan(plan.id), null);
      assert.deepEqual(await store.listPlans(), []);
      assert.equal(await store.deletePlan(plan.id), 'missing');
    });

    it('refuses to delete a plan an identity names until the identity leaves it', async () => {
      const { store } = current();
      const plan = makePlan();
      await store.createPlan(plan);
      const identity = makeIdentity({ planId: plan.id });
      assert.equal(await store.createIdentity({ identity }), true);
      assert.equal(await store.deletePlan(plan.id), 'in_use');
      const moved = { ...identity, planId: null, version: 2 };
      assert.equal(await store.updateIdentity(moved, 1), true);
      assert.equal(await store.deletePlan(plan.id), 'deleted');
    });
  });

  describe('identities', () => {
    it('stores an identity and finds it by id and by external id in its environment only', async () => {
      const { store } = current();
      const identity = makeIdentity({ externalId: 'cus_42' });
      assert.equal(await store.createIdentity({ identity }), true);
      assert.deepEqual(await store.getIdentity(identity.id), identity);
      assert.deepEqual(await store.findIdentityByExternalId('live', 'cus_42'), identity);
      assert.equal(await store.findIdentityByExternalId('test', 'cus_42'), null);
      assert.equal(await store.getIdentity('idt_missing'), null);
    });

    it('keeps an external id unique per environment', async () => {
      const { store } = current();
      assert.equal(await store.createIdentity({ identity: makeIdentity({ externalId: 'acme' }) }), true);
      const twin = makeIdentity({ externalId: 'acme' });
      assert.equal(await store.createIdentity({ identity: twin }), false);
      assert.equal(await store.getIdentity(twin.id), null, 'the refused identity was stored');
      const other = makeIdentity({ externalId: 'acme', environment: 'test' });
      assert.equal(await store.createIdentity({ identity: other }), true);
    });

    it('lists identities newest first, by environment, in pages', async () => {
      const { store } = current();
      const made: Identity[] = [];
      for (let i = 0; i < 5; i++) {
        const identity = makeIdentity({ createdAt: iso(i * 1000), environment: i === 2 ? 'test' : 'live' });
        await store.createIdentity({ identity });
        made.push(identity);
      }
      const first = await store.listIdentities({ environment: 'live', limit: 2 });
      assert.deepEqual(first.items, [made[4], made[3]]);
      assert.ok(first.nextCursor);
      const second = await store.listIdentities({ environment: 'live', limit: 2, cursor: first.nextCursor });
      assert.deepEqual(second.items, [made[1], made[0]]);
      assert.equal(second.nextCursor, null);
      const all = await store.listIdentities();
      assert.deepEqual(
        all.items.map((identity) => identity.id),
        [...made].reverse().map((identity) => identity.id),
      );
    });

    it('refuses a list cursor it did not make with InvalidCursorError', async () => {
      const { store } = current();
      await assert.rejects(store.listIdentities({ cursor: 'not-a-cursor' }), InvalidCursorError);
    });

    it('updates an identity only at the expected version, keeping its environment and external id', async () => {
      const { store } = current();
      const plan = makePlan();
      await store.createPlan(plan);
      const identity = makeIdentity();
      await store.createIdentity({ identity });
      const next: Identity = {
        ...identity,
        planId: plan.id,
        meta: { tier: 'platinum' },
        quotas: [{ period: 'day', limit: 50 }],
        version: 2,
        updatedAt: iso(9000),
      };
      assert.equal(await store.updateIdentity(next, 5), false);
      assert.equal(await store.updateIdentity(next, 1), true);
      assert.deepEqual(await store.getIdentity(identity.id), next);
    });

    it('refuses to delete an identity with keys, lists its keys, and frees its external id once deleted', async () => {
      const { store } = current();
      const identity = makeIdentity({ externalId: 'cus_del' });
      await store.createIdentity({ identity });
      const { key: first } = await seedKey(store, { identityId: identity.id, createdAt: iso(0) });
      const { key: second } = await seedKey(store, { identityId: identity.id, createdAt: iso(1000) });
      await seedKey(store);
      assert.deepEqual(
        (await store.listKeysOfIdentity(identity.id)).map((key) => key.id),
        [second.id, first.id],
      );
      assert.equal(await store.deleteIdentity(identity.id), 'in_use');
      await store.commitChange(update(first, { identityId: null }));
      await store.commitChange(update(second, { identityId: null }));
      assert.deepEqual(await store.listKeysOfIdentity(identity.id), []);
      assert.equal(await store.deleteIdentity(identity.id), 'deleted');
      assert.equal(await store.getIdentity(identity.id), null);
      assert.equal(await store.findIdentityByExternalId('live', 'cus_del'), null);
      assert.equal(await store.deleteIdentity(identity.id), 'missing');
      assert.equal(await store.createIdentity({ identity: makeIdentity({ externalId: 'cus_del' }) }), true);
    });
  });

  describe('key budget fields', () => {
    it('stores a key’s identity, plan, overrides and credits config and serves them on lookup', async () => {
      const { store } = current();
      const plan = makePlan();
      await store.createPlan(plan);
      const identity = makeIdentity();
      await store.createIdentity({ identity });
      const { key, secret } = await seedKey(store, {
        identityId: identity.id,
        planId: plan.id,
        limits: [{ name: 'burst', window: 'second', limit: 5 }],
        quotas: [{ period: 'day', limit: 100 }],
        credits: { refill: null },
      });
      assert.deepEqual(await store.getKey(key.id), key);
      assert.deepEqual((await store.findByLookup(secret.lookup))?.key, key);
    });

    it('keeps the credits.low level of a key’s and an identity’s credits through an update', async () => {
      const { store } = current();
      const identity = makeIdentity({ credits: { refill: null, lowAt: 40 } });
      await store.createIdentity({ identity, creditsBalance: { remaining: 100, refilledAt: 0 } });
      assert.equal((await store.getIdentity(identity.id))?.credits?.lowAt, 40);
      const lowered = { ...identity, credits: { refill: null, lowAt: 10 }, version: 2 };
      assert.equal(await store.updateIdentity(lowered, 1), true);
      assert.deepEqual((await store.getIdentity(identity.id))?.credits, { refill: null, lowAt: 10 });
      const { key, secret } = await seedKey(store, {
        credits: { refill: { interval: 'daily', amount: 50 }, lowAt: 5 },
      });
      assert.equal((await store.getKey(key.id))?.credits?.lowAt, 5);
      assert.equal((await store.findByLookup(secret.lookup))?.key.credits?.lowAt, 5);
    });

    it('reads a key stored without budget fields as having none', async () => {
      const { store } = current();
      const bare = makeKey();
      delete bare.identityId;
      delete bare.planId;
      delete bare.limits;
      delete bare.quotas;
      delete bare.credits;
      const secret = makeSecret(bare.id);
      const change = { key: bare, expectedVersion: null, secrets: [secret], activity: makeActivity(bare) };
      assert.equal(await store.commitChange(change), true);
      const expected = { ...bare, identityId: null, planId: null, limits: [], quotas: [], credits: null };
      assert.deepEqual(await store.getKey(bare.id), expected);
      assert.deepEqual((await store.findByLookup(secret.lookup))?.key, expected);
    });

    it('moves a key between identities in "keys of identity"', async () => {
      const { store } = current();
      const a = makeIdentity();
      const b = makeIdentity();
      await store.createIdentity({ identity: a });
      await store.createIdentity({ identity: b });
      const { key } = await seedKey(store, { identityId: a.id });
      await store.commitChange(update(key, { identityId: b.id }));
      assert.deepEqual(await store.listKeysOfIdentity(a.id), []);
      assert.deepEqual(
        (await store.listKeysOfIdentity(b.id)).map((found) => found.id),
        [key.id],
      );
    });
  });
}
