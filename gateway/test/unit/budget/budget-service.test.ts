import assert from 'node:assert/strict';
import { periodSpanOf } from '@keygate/contracts/gateway';
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts';
import type { BudgetUsageRow } from '../../../src/budget/usage-meter.ts';
import { GatewayError } from '../../../src/errors.ts';
import { renderExport } from '../../../src/keys-api/credits-handlers.ts';
import type { Identity } from '../../../src/model/budget.ts';
import { createBudgetService } from '../../../src/plans/budget-service.ts';
import { createCountingHasher } from '../../support/counting-hasher.ts';
import { seedKey } from '../../support/keys.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

const ADMIN = { type: 'admin', id: 'adm_1' } as const;
const NOW = Date.parse('2026-11-28T10:00:00.000Z');

function identity(fields: Partial<Identity>): Identity {
  return {
    id: 'idt_1',
    externalId: 'acme',
    environment: 'live',
    planId: null,
    meta: {},
    limits: [],
    quotas: [],
    credits: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    version: 1,
    ...fields,
  };
}

async function setup(rows: BudgetUsageRow[] = []) {
  const store = createMemoryStore();
  const service = createBudgetService({
    store,
    ledger: createMemoryLedger(),
    usage: {
      readBudgetUsage: async (subject, from, to) =>
        rows.filter((r) => r.subject === subject && r.day >= from && r.day < to),
      listBudgetUsage: async (from, to) => rows.filter((r) => r.day >= from && r.day < to),
    },
    clock: () => NOW,
  });
  return { store, service, hasher: createCountingHasher() };
}

const problemCode = (code: string) => (error: unknown) =>
  error instanceof GatewayError && error.code === code;

describe('the budget service', () => {
  it("sets, adds to and takes from a key's own balance, never below zero", async () => {
    const { store, service, hasher } = await setup();
    const { key } = await seedKey(store, hasher);
    key.credits = { refill: { interval: 'monthly', amount: 100, day: 1 } };
    const first = await service.keyCredits(ADMIN, key.id);
    assert.deepEqual(first, {
      remaining: 100,
      refill: key.credits.refill,
      refillsAt: '2026-12-01T00:00:00.000Z',
    });
    assert.equal((await service.changeKeyCredits(ADMIN, key.id, { decrement: 30 })).remaining, 70);
    assert.equal((await service.changeKeyCredits(ADMIN, key.id, { increment: 5 })).remaining, 75);
    assert.equal((await service.changeKeyCredits(ADMIN, key.id, { decrement: 500 })).remaining, 0);
    assert.equal((await service.changeKeyCredits(ADMIN, key.id, { set: 9 })).remaining, 9);
  });

  it('refuses a key that spends no balance of its own with CREDITS_NOT_HELD, naming its identity', async () => {
    const { store, service, hasher } = await setup();
    const { key } = await seedKey(store, hasher);
    await assert.rejects(
      service.changeKeyCredits(ADMIN, key.id, { set: 5 }),
      problemCode('CREDITS_NOT_HELD'),
    );
    store.identities.set('idt_1', identity({ credits: { refill: null } }));
    key.identityId = 'idt_1';
    await assert.rejects(service.keyCredits(ADMIN, key.id), (error: unknown) => {
      assert.match((error as Error).message, /spends the credits of its identity idt_1/);
      return true;
    });
    assert.equal((await service.changeIdentityCredits(ADMIN, 'idt_1', { set: 12 })).remaining, 12);
  });

  it("hides another environment's keys and identities from a key actor", async () => {
    const { store, service, hasher } = await setup();
    const { key: caller } = await seedKey(store, hasher, { environment: 'test', scopes: ['auth:rw'] });
    const { key: live } = await seedKey(store, hasher, { environment: 'live' });
    store.identities.set('idt_1', identity({ environment: 'live', credits: { refill: null } }));
    const actor = { type: 'key', id: caller.id } as const;
    await assert.rejects(service.keyCredits(actor, live.id), problemCode('KEY_NOT_FOUND'));
    await assert.rejects(service.identityCredits(actor, 'idt_1'), problemCode('IDENTITY_NOT_FOUND'));
  });

  it('exports each billable call once: identities, and keys without one, in a stable order', async () => {
    const rows: BudgetUsageRow[] = [
      { subject: 'key_~lost', day: '2026-11-02', outcome: 'VALID', calls: 2, cost: 2 },
      { subject: 'idt_1', day: '2026-11-02', outcome: 'VALID', calls: 2, cost: 7 },
      { subject: 'idt_1', day: '2026-11-03', outcome: 'QUOTA_EXCEEDED', calls: 1, cost: 0 },
      { subject: 'idt_1', day: '2026-11-04', outcome: 'VALID', calls: 1, cost: 1 },
      { subject: 'idt_1', day: '2026-12-01', outcome: 'VALID', calls: 9, cost: 9 },
    ];
    const { store, service, hasher } = await setup(rows);
    const { key: member } = await seedKey(store, hasher);
    member.identityId = 'idt_1';
    rows.push({ subject: member.id, day: '2026-11-02', outcome: 'VALID', calls: 2, cost: 7 });
    const { key: alone } = await seedKey(store, hasher);
    rows.push({ subject: alone.id, day: '2026-11-05', outcome: 'VALID', calls: 4, cost: 4 });
    store.identities.set('idt_1', identity({ externalId: '=HYPERLINK("x")' }));
    const exported = await service.exportUsage(ADMIN, periodSpanOf('2026-11')!);
    assert.deepEqual(
      exported.map((row) => `${row.subjectId} ${row.outcome} ${row.calls} ${row.cost}`),
      ['idt_1 VALID 3 8', 'idt_1 QUOTA_EXCEEDED 1 0', `${alone.id} VALID 4 4`, 'key_~lost VALID 2 2'],
      'the identity member is billed through its identity; a key the store lost is still billed',
    );
    const csv = renderExport(exported, 'csv');
    assert.equal(
      csv.split('\r\n')[0],
      'period,subject_type,subject_id,external_id,environment,outcome,calls,cost',
    );
    assert.equal(csv.split('\r\n')[1], `2026-11,identity,idt_1,"'=HYPERLINK(""x"")",live,VALID,3,8`);
    assert.equal(renderExport(exported, 'csv'), csv, 'the same rows render the same bytes');
    const lines = renderExport(exported, 'jsonl')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines.length, 4);
    assert.equal(lines[2].subjectType, 'key');
    assert.deepEqual(await service.keyUsage(ADMIN, alone.id, periodSpanOf('2026-W45')!), {
      period: '2026-W45',
      from: '2026-11-02',
      to: '2026-11-09',
      total: { calls: 4, cost: 4 },
      outcomes: { VALID: { calls: 4, cost: 4 } },
    });
  });
});
