import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts';
import type { BudgetPolicy } from '../../../src/budget/policy.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';

const POLICY: BudgetPolicy & { credits: NonNullable<BudgetPolicy['credits']> } = {
  lines: [
    { kind: 'limit', name: 'minute', window: 'minute', limit: 100, subject: 'idt_1' },
    { kind: 'quota', name: 'month', window: 'month', limit: 1000, subject: 'idt_1' },
  ],
  credits: { subject: 'idt_1', refill: null },
};

describe('the in-process ledger on a SQLite file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-ledger-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps counts and balances across a restart: written on close, read on the next first call', async () => {
    const file = join(dir, 'gateway.db');
    const now = Date.parse('2026-11-28T10:00:00.000Z');
    let store = openSqliteKeyStore(file);
    let ledger = createMemoryLedger({ storage: store.budgetStorage.ledger, flushIntervalMs: 3_600_000 });
    await ledger.changeCredits(POLICY, { set: 10 }, now);
    for (let i = 0; i < 3; i++) assert.equal(ledger.spendNow!(POLICY, 2, now).refusal, null);
    ledger.close();
    await store.close();

    store = openSqliteKeyStore(file);
    ledger = createMemoryLedger({ storage: store.budgetStorage.ledger, flushIntervalMs: 3_600_000 });
    const verdict = ledger.spendNow!(POLICY, 2, now + 30_000);
    assert.deepEqual(verdict.used, [8, 8], 'the minute and the month counted 6 before the restart');
    assert.equal(verdict.credits?.remaining, 2);
    assert.equal(ledger.spendNow!(POLICY, 3, now + 30_000).refusal?.code, 'CREDITS_EXHAUSTED');
    assert.deepEqual(ledger.spendNow!(POLICY, 1, now + 61_000).used, [1, 9], 'a new minute, the same month');
    ledger.close();
    await store.close();
  });
});
