import assert from 'node:assert/strict';
import { type BudgetUsageStore, createUsageMeter } from '../src/budget/usage-meter.ts';

/** What every billing usage store must do; run for each backend. */
export function describeBudgetUsageContract(
  name: string,
  open: () => Promise<{ usage: BudgetUsageStore; cleanup(): Promise<void> }>,
) {
  describe(`billing usage (${name})`, () => {
    let usage: BudgetUsageStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ usage, cleanup } = await open());
    });
    afterEach(() => cleanup());

    it('sums calls and cost per subject, day and outcome, a key and its identity each', async () => {
      const meter = createUsageMeter({ store: usage, flushIntervalMs: 3_600_000 });
      const at = Date.parse('2026-11-28T23:59:59.000Z');
      meter.count('key_a', 'idt_1', 'VALID', 3, at);
      meter.count('key_b', 'idt_1', 'VALID', 1, at);
      meter.count('key_a', 'idt_1', 'QUOTA_EXCEEDED', 0, at);
      meter.count('key_a', 'idt_1', 'VALID', 2, at + 2_000);
      await meter.close();
      const sorted = (rows: Awaited<ReturnType<BudgetUsageStore['readBudgetUsage']>>) =>
        rows.map((r) => `${r.subject} ${r.day} ${r.outcome} ${r.calls} ${r.cost}`).sort();
      assert.deepEqual(sorted(await usage.readBudgetUsage('idt_1', '2026-11-01', '2026-12-01')), [
        'idt_1 2026-11-28 QUOTA_EXCEEDED 1 0',
        'idt_1 2026-11-28 VALID 2 4',
        'idt_1 2026-11-29 VALID 1 2',
      ]);
      assert.deepEqual(sorted(await usage.readBudgetUsage('key_a', '2026-11-29', '2026-11-30')), [
        'key_a 2026-11-29 VALID 1 2',
      ]);
      assert.deepEqual(sorted(await usage.readBudgetUsage('key_a', '2026-12-01', '2027-01-01')), []);
      assert.equal((await usage.listBudgetUsage('2026-11-01', '2026-12-01')).length, 7);
      assert.equal((await usage.listBudgetUsage('2026-11-29', '2026-11-30')).length, 2);
    });

    it('counts a retried flush once', async () => {
      const rows = [{ subject: 'idt_2', day: '2026-11-28', outcome: 'VALID' as const, calls: 4, cost: 4 }];
      await usage.addBudgetUsage(rows, 'flush-1');
      await usage.addBudgetUsage(rows, 'flush-1');
      const [row] = await usage.readBudgetUsage('idt_2', '2026-11-28', '2026-11-29');
      assert.equal(row?.calls, 4);
    });
  });
}
