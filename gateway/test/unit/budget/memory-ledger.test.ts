import assert from 'node:assert/strict';
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts';
import type { BudgetPolicy } from '../../../src/budget/policy.ts';
import { mapLedgerStorage } from '../../support/map-ledger-storage.ts';

const T0 = Date.parse('2026-11-28T12:00:10.000Z');

/** A plan line set of an identity, built afresh: two keys' policies are two objects. */
const identityPolicy = (): BudgetPolicy => ({
  lines: [
    { kind: 'limit', name: 'minute', window: 'minute', limit: 100, subject: 'idt_1' },
    { kind: 'quota', name: 'day', window: 'day', limit: 1000, subject: 'idt_1' },
  ],
  credits: null,
});

describe('the in-process budget ledger', () => {
  it('counts the calls of two keys sharing an identity in one count per line', () => {
    const ledger = createMemoryLedger();
    const [first, second] = [identityPolicy(), identityPolicy()];
    ledger.spendNow!(first, 2, T0);
    ledger.spendNow!(second, 3, T0 + 1);
    assert.deepEqual(ledger.spendNow!(first, 1, T0 + 2).used, [6, 6]);
    assert.deepEqual(ledger.spendNow!(second, 1, T0 + 61_000).used, [1, 7]);
    ledger.close();
  });

  it('writes each changed count once per flush, with its latest value, and nothing when none changed', async () => {
    const { storage, saves } = mapLedgerStorage();
    const ledger = createMemoryLedger({ storage, flushIntervalMs: 3_600_000 });
    const policy = identityPolicy();
    for (let i = 0; i < 3; i++) ledger.spendNow!(policy, 1, T0 + i);
    await ledger.flush();
    await ledger.flush();
    assert.equal(saves.length, 1);
    assert.deepEqual(
      saves[0]!.map(({ name, used }) => [name, used]),
      [
        ['l:minute', 3],
        ['q:day', 3],
      ],
    );
    ledger.close();
  });

  it('spends a balance set after its holder was dropped from memory, not the one it held before', async () => {
    const { storage } = mapLedgerStorage();
    const ledger = createMemoryLedger({ storage, flushIntervalMs: 3_600_000 });
    const policy = { lines: [], credits: { subject: 'key_1', refill: null } } satisfies BudgetPolicy;
    await ledger.changeCredits(policy, { set: 10 }, T0);
    assert.equal(ledger.spendNow!(policy, 1, T0).credits?.remaining, 9);
    await ledger.flush();
    // A minute later the holder, all written, is dropped from memory and read again on its next use.
    assert.equal(ledger.spendNow!(policy, 1, T0 + 61_000).credits?.remaining, 8);
    await ledger.flush();
    await ledger.changeCredits(policy, { set: 5 }, T0 + 62_000);
    assert.equal(ledger.spendNow!(policy, 1, T0 + 63_000).credits?.remaining, 4);
    assert.deepEqual(await ledger.readCredits(policy, T0 + 64_000), { remaining: 4, refilledAt: 0 });
    ledger.close();
  });
});
