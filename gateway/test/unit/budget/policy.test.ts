import assert from 'node:assert/strict';
import type { ApiKey, Identity, Plan } from '@keygate/contracts/gateway';
import { resolvePolicy } from '../../../src/budget/policy.ts';

const key = (fields: Partial<ApiKey> = {}) => ({ id: 'key_1', ...fields }) as ApiKey;
const plan = (fields: Partial<Plan>): Plan => ({
  id: 'plan_1',
  name: 'pro',
  limits: [],
  quotas: [],
  credits: null,
  createdAt: '',
  updatedAt: '',
  version: 1,
  ...fields,
});
const identity = (fields: Partial<Identity> = {}): Identity => ({
  id: 'idt_1',
  externalId: 'acme',
  environment: 'live',
  planId: 'plan_1',
  meta: {},
  limits: [],
  quotas: [],
  credits: null,
  createdAt: '',
  updatedAt: '',
  version: 1,
  ...fields,
});

describe('resolvePolicy', () => {
  it('gives nothing to a key without plan, identity, overrides or credits', () => {
    assert.equal(resolvePolicy({ key: key(), identity: null, keyPlan: null, identityPlan: null }), null);
  });

  it("counts an identity's plan on the identity, so its keys share one budget", () => {
    const pro = plan({
      limits: [{ name: 'burst', window: 'second', limit: 5 }],
      quotas: [{ period: 'month', limit: 1000 }],
    });
    const policy = resolvePolicy({
      key: key({ identityId: 'idt_1' }),
      identity: identity(),
      keyPlan: null,
      identityPlan: pro,
    });
    assert.deepEqual(
      policy?.lines.map((line) => [line.kind, line.name, line.limit, line.subject]),
      [
        ['limit', 'burst', 5, 'idt_1'],
        ['quota', 'month', 1000, 'idt_1'],
      ],
    );
  });

  it("takes the key's own value first, then the identity's override, then the plan", () => {
    const pro = plan({
      limits: [
        { name: 'minute', window: 'minute', limit: 100 },
        { name: 'hour', window: 'hour', limit: 1000 },
      ],
      quotas: [
        { period: 'day', limit: 500 },
        { period: 'month', limit: 10_000 },
      ],
    });
    const policy = resolvePolicy({
      key: key({ identityId: 'idt_1', quotas: [{ period: 'day', limit: 50 }] }),
      identity: identity({
        limits: [{ name: 'minute', window: 'minute', limit: 10 }],
        quotas: [{ period: 'day', limit: 200 }],
      }),
      keyPlan: null,
      identityPlan: pro,
    });
    assert.deepEqual(
      policy?.lines.map((line) => `${line.name}=${line.limit}@${line.subject}`),
      ['minute=10@idt_1', 'hour=1000@idt_1', 'day=50@key_1', 'month=10000@idt_1'],
    );
  });

  it("spends the key's own balance, else the identity's, else a plan's refill", () => {
    const refill = { interval: 'daily' as const, amount: 10 };
    const metered = plan({ credits: { refill } });
    const base = { keyPlan: null, identityPlan: metered };
    assert.deepEqual(
      resolvePolicy({
        ...base,
        key: key({ identityId: 'idt_1', credits: { refill: null } }),
        identity: identity(),
      })?.credits,
      { subject: 'key_1', refill: null },
    );
    assert.deepEqual(
      resolvePolicy({
        ...base,
        key: key({ identityId: 'idt_1' }),
        identity: identity({ credits: { refill: null } }),
      })?.credits,
      { subject: 'idt_1', refill },
    );
    assert.deepEqual(
      resolvePolicy({ ...base, key: key({ identityId: 'idt_1' }), identity: identity() })?.credits,
      {
        subject: 'idt_1',
        refill,
      },
    );
  });
});
