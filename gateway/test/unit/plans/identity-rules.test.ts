import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import { createIdentityService } from '../../../src/plans/identity-service.ts';
import { createPlanService } from '../../../src/plans/plan-service.ts';
import { ADMIN, createHarness, FROM_IP, type Harness, rejectsWith } from '../keys/harness.ts';

describe('identity and key budget rules', () => {
  let h: Harness;
  let identities: ReturnType<typeof createIdentityService>;
  let plans: ReturnType<typeof createPlanService>;
  let liveManager: string;
  beforeEach(async () => {
    h = createHarness();
    const deps = { store: h.store, events: createLocalKeyEvents(), clock: h.clock };
    identities = createIdentityService(deps);
    plans = createPlanService(deps);
    liveManager = (await h.adminCreate({ name: 'manager', scopes: ['auth:rw', 'order:rw'] })).key.id;
  });
  afterEach(() => h.cleanup());

  describe('creating an identity', () => {
    it('puts it in the calling key’s environment by default', async () => {
      const identity = await identities.createIdentity(h.asKey(liveManager), { externalId: 'c1' });
      assert.equal(identity.environment, 'live');
    });

    it('refuses another environment to a key (403 ESCALATION_DENIED, rule environment)', async () => {
      const error = await rejectsWith(
        identities.createIdentity(h.asKey(liveManager), { externalId: 'c1', environment: 'test' }),
        'ESCALATION_DENIED',
        'environment',
      );
      assert.match(error.message, /live key/);
    });

    it('asks an administrator for the environment (422) and lets it choose either', async () => {
      await rejectsWith(identities.createIdentity(ADMIN, { externalId: 'c1' }), 'VALIDATION_FAILED');
      const identity = await identities.createIdentity(ADMIN, { externalId: 'c1', environment: 'test' });
      assert.equal(identity.environment, 'test');
    });

    it('starts its credit balance with the given remaining at the clock’s time', async () => {
      const identity = await identities.createIdentity(ADMIN, {
        externalId: 'c1',
        environment: 'live',
        credits: { remaining: 30, refill: { interval: 'monthly', amount: 30, day: 15 } },
      });
      assert.deepEqual(identity.credits, { refill: { interval: 'monthly', amount: 30, day: 15 } });
      const db = new Database(h.file, { readonly: true });
      try {
        const row = db
          .prepare('SELECT remaining, refilled_at AS at FROM credit_balances WHERE subject = ?')
          .get(identity.id);
        assert.deepEqual(row, { remaining: 30, at: h.clock() });
      } finally {
        db.close();
      }
    });
  });

  describe('reading', () => {
    it('hides an identity of another environment from a key (404) but not from an administrator', async () => {
      const test = await identities.createIdentity(ADMIN, { externalId: 't', environment: 'test' });
      await rejectsWith(identities.getIdentity(h.asKey(liveManager), test.id), 'IDENTITY_NOT_FOUND');
      assert.equal((await identities.getIdentity(ADMIN, test.id)).id, test.id);
      const page = await identities.listIdentities(h.asKey(liveManager), { environment: 'test' });
      assert.deepEqual(page.items, []);
    });
  });

  describe('a key’s budget', () => {
    it('tells an administrator that an identity belongs to another environment (422), a key only 404', async () => {
      const test = await identities.createIdentity(ADMIN, { externalId: 't', environment: 'test' });
      await rejectsWith(h.adminCreate({ identityId: test.id }), 'VALIDATION_FAILED');
      await rejectsWith(
        h.service.createKey(
          h.asKey(liveManager),
          { name: 'x', scopes: ['order:r'], identityId: test.id },
          FROM_IP,
        ),
        'IDENTITY_NOT_FOUND',
      );
    });

    it('logs one key.budget_changed with the changed members only, and nothing for the same values', async () => {
      const plan = await plans.createPlan({ name: 'Pro' });
      const { key } = await h.adminCreate({ name: 'c' });
      const changed = await h.service.changeBudget(ADMIN, key.id, { planId: plan.id, limits: [] }, FROM_IP);
      assert.equal(changed.planId, plan.id);
      await h.service.changeBudget(ADMIN, key.id, { planId: plan.id }, FROM_IP);
      const { items } = await h.store.listActivity({ keyId: key.id, action: 'key.budget_changed' });
      assert.equal(items.length, 1);
      assert.deepEqual(items[0]?.before, { planId: null });
      assert.deepEqual(items[0]?.after, { planId: plan.id });
      assert.deepEqual(h.published.slice(-1), [key.id], 'the key change was not announced');
    });

    it('lets a revoked key leave its identity, so the identity can be deleted', async () => {
      const identity = await identities.createIdentity(ADMIN, { externalId: 'r', environment: 'live' });
      const { key } = await h.adminCreate({ identityId: identity.id });
      await h.service.revokeKey(ADMIN, key.id, FROM_IP);
      await rejectsWith(identities.deleteIdentity(ADMIN, identity.id), 'IDENTITY_HAS_KEYS');
      await h.service.changeBudget(ADMIN, key.id, { identityId: null }, FROM_IP);
      await identities.deleteIdentity(ADMIN, identity.id);
      await rejectsWith(identities.getIdentity(ADMIN, identity.id), 'IDENTITY_NOT_FOUND');
    });

    it('refuses a key that does not cover the target (target_scopes), as other changes do', async () => {
      const { key } = await h.adminCreate({ scopes: ['stock:rw'] });
      await rejectsWith(
        h.service.changeBudget(h.asKey(liveManager), key.id, { quotas: [] }, FROM_IP),
        'ESCALATION_DENIED',
        'target_scopes',
      );
    });
  });
});
