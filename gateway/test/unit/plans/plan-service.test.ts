import assert from 'node:assert/strict';
import { type BudgetChange, createLocalKeyEvents } from '../../../src/model/events.ts';
import { createPlanService } from '../../../src/plans/plan-service.ts';
import { createMemoryStore, type MemoryStore } from '../../support/memory-store.ts';
import { createTestClock, rejectsWith } from '../keys/harness.ts';

describe('the plan service', () => {
  let store: MemoryStore;
  let published: BudgetChange[];
  let clock: ReturnType<typeof createTestClock>;
  let service: ReturnType<typeof createPlanService>;
  beforeEach(() => {
    store = createMemoryStore();
    const events = createLocalKeyEvents();
    published = [];
    events.subscribeBudget((change) => published.push(change));
    clock = createTestClock('2026-11-01T00:00:00.000Z');
    service = createPlanService({ store, events, clock });
  });

  it('creates a plan at version 1, stamped with the clock, and announces it', async () => {
    const plan = await service.createPlan({ name: ' Pro ', quotas: [{ period: 'day', limit: 5 }] });
    assert.equal(plan.name, 'Pro');
    assert.equal(plan.version, 1);
    assert.equal(plan.createdAt, '2026-11-01T00:00:00.000Z');
    assert.deepEqual(published, [{ kind: 'plan', id: plan.id }]);
  });

  it('refuses invalid input with 422 and writes nothing', async () => {
    await rejectsWith(
      service.createPlan({ name: 'x', credits: { refill: { interval: 'daily', amount: 5, day: 3 } } }),
      'VALIDATION_FAILED',
    );
    assert.equal(store.plans.size, 0);
    assert.deepEqual(published, []);
  });

  describe('updatePlan', () => {
    it('bumps the version and updatedAt of a real change and announces it; the same values change nothing', async () => {
      const plan = await service.createPlan({ name: 'Pro' });
      clock.advance(60_000);
      const same = await service.updatePlan(plan.id, { name: 'Pro', limits: [] });
      assert.deepEqual(same, plan);
      const changed = await service.updatePlan(plan.id, {
        limits: [{ name: 'm', window: 'minute', limit: 9 }],
      });
      assert.equal(changed.version, 2);
      assert.equal(changed.updatedAt, '2026-11-01T00:01:00.000Z');
      assert.deepEqual(published.slice(1), [{ kind: 'plan', id: plan.id }]);
    });

    it('re-reads and retries once after a version conflict, then answers 409 CONFLICT', async () => {
      const plan = await service.createPlan({ name: 'Pro' });
      const realUpdate = store.updatePlan;
      let conflicts = 1;
      store.updatePlan = async (next, expected) => (conflicts-- > 0 ? false : realUpdate(next, expected));
      assert.equal((await service.updatePlan(plan.id, { name: 'Max' })).version, 2);
      store.updatePlan = async () => false;
      await rejectsWith(service.updatePlan(plan.id, { name: 'Ultra' }), 'CONFLICT');
      assert.equal(store.plans.get(plan.id)?.name, 'Max');
    });

    it('answers 404 PLAN_NOT_FOUND for an unknown plan', async () => {
      await rejectsWith(service.updatePlan('plan_x', { name: 'A' }), 'PLAN_NOT_FOUND');
    });
  });

  describe('deletePlan', () => {
    it('answers 409 PLAN_IN_USE while an identity names the plan, and deletes it once free', async () => {
      const plan = await service.createPlan({ name: 'Pro' });
      store.identities.set('idt_1', {
        id: 'idt_1',
        externalId: 'c',
        environment: 'live',
        planId: plan.id,
        meta: {},
        limits: [],
        quotas: [],
        credits: null,
        createdAt: plan.createdAt,
        updatedAt: plan.createdAt,
        version: 1,
      });
      await rejectsWith(service.deletePlan(plan.id), 'PLAN_IN_USE');
      assert.ok(store.plans.has(plan.id));
      store.identities.delete('idt_1');
      await service.deletePlan(plan.id);
      assert.equal(store.plans.has(plan.id), false);
      assert.deepEqual(published.at(-1), { kind: 'plan', id: plan.id });
      await rejectsWith(service.deletePlan(plan.id), 'PLAN_NOT_FOUND');
    });
  });
});
