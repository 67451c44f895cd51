import assert from 'node:assert/strict';
import type { ApiKey, Identity, Plan } from '@keygate/contracts/gateway';
import { createPolicyCache } from '../../../src/budget/policy-cache.ts';

const plan = (limit: number): Plan => ({
  id: 'plan_1',
  name: 'pro',
  limits: [],
  quotas: [{ period: 'month', limit }],
  credits: null,
  createdAt: '',
  updatedAt: '',
  version: 1,
});

/** A reader over maps that counts its reads. */
function reader() {
  const plans = new Map<string, Plan>([['plan_1', plan(100)]]);
  const identities = new Map<string, Identity>();
  const reads = { plans: 0, identities: 0 };
  return {
    plans,
    identities,
    reads,
    getPlan: async (id: string) => {
      reads.plans++;
      return plans.get(id) ?? null;
    },
    getIdentity: async (id: string) => {
      reads.identities++;
      return identities.get(id) ?? null;
    },
  };
}

const key = (fields: Partial<ApiKey>) => ({ id: 'key_1', version: 1, ...fields }) as ApiKey;

describe('the budget policy cache', () => {
  it('answers a key without a budget at once, reading nothing', () => {
    const source = reader();
    const cache = createPolicyCache(source);
    assert.equal(cache.policyOf(key({ limits: [], quotas: [], credits: null })), null);
    assert.deepEqual(source.reads, { plans: 0, identities: 0 });
  });

  it('reads a plan once, then answers from memory until the key or a plan changes', async () => {
    const source = reader();
    const cache = createPolicyCache(source);
    const onPlan = key({ planId: 'plan_1' });
    const first = await cache.policyOf(onPlan);
    assert.equal(first?.lines[0]?.limit, 100);
    assert.equal(cache.policyOf(onPlan), first, 'synchronous from memory');
    assert.equal(source.reads.plans, 1);

    source.plans.set('plan_1', plan(5));
    assert.equal(cache.policyOf(onPlan), first, 'no event yet: the cached plan');
    cache.invalidate();
    assert.equal((await cache.policyOf(onPlan))?.lines[0]?.limit, 5);

    const changed = await cache.policyOf(
      key({ planId: 'plan_1', version: 2, quotas: [{ period: 'month', limit: 7 }] }),
    );
    assert.equal(changed?.lines[0]?.limit, 7, "a new key version: the key's own quota");
  });

  it('does not cache what it read while a change was announced', async () => {
    const source = reader();
    const cache = createPolicyCache(source);
    const pending = cache.policyOf(key({ planId: 'plan_1' }));
    cache.invalidate();
    await pending;
    assert.ok(cache.policyOf(key({ planId: 'plan_1' })) instanceof Promise);
  });
});
