import type { CreditsState } from '../../src/budget/decide.ts';
import type { LedgerStorage, StoredCounter, StoredOperation } from '../../src/budget/memory-ledger.ts';

/**
 * The in-process ledger's storage kept in Maps, so a "restart" (a new ledger on the same storage)
 * can be tried; `saves` lists the counters of every batch it was handed.
 */
export function mapLedgerStorage(): { storage: LedgerStorage; saves: StoredCounter[][] } {
  const counters = new Map<string, StoredCounter>();
  const credits = new Map<string, CreditsState>();
  const operations = new Map<string, StoredOperation>();
  const saves: StoredCounter[][] = [];
  const storage: LedgerStorage = {
    load: (subject) => ({
      counters: [...counters.values()].filter((c) => c.subject === subject).map(({ subject: _, ...c }) => c),
      credits: credits.get(subject) ?? null,
    }),
    save(saved, balances, done = []) {
      saves.push(saved);
      for (const c of saved) counters.set(`${c.subject} ${c.name} ${c.windowStart}`, { ...c });
      for (const { subject, state } of balances) credits.set(subject, { ...state });
      for (const operation of done) operations.set(operation.id, operation);
    },
    findOperation(id, nowMs) {
      const operation = operations.get(id);
      return operation && operation.expiresAt > nowMs ? operation.state : null;
    },
    prune() {},
  };
  return { storage, saves };
}
