import type { CreditsOperation } from '@keygate/contracts/gateway';
import { IDEMPOTENCY_RETENTION_MS } from '@keygate/contracts/idempotency';
import { createCounterSlots, type PolicySlots } from './counter-slots.ts';
import {
  adjustReading,
  type BudgetReading,
  type CreditsState,
  decideBudget,
  refilledCredits,
} from './decide.ts';
import { applyCreditsOperation, type BudgetLedger } from './ledger.ts';
import type { BudgetPolicy, CreditsLine } from './policy.ts';

/** One stored count: a line's calls (cost units) in the window that starts at `windowStart`. */
export interface StoredCounter {
  subject: string;
  name: string;
  windowStart: number;
  used: number;
}

/** What a subject has stored: its counts in windows not yet over, and its balance. */
export interface StoredSubject {
  counters: Array<Omit<StoredCounter, 'subject'>>;
  credits: CreditsState | null;
}

/** A credits operation remembered by its request's id (BudgetLedger.changeCredits), until `expiresAt`. */
export interface StoredOperation {
  id: string;
  state: CreditsState;
  expiresAt: number;
}

/**
 * Durable storage behind the in-process ledger: read once per subject, written in batches. This
 * process is the only writer (one gateway on one SQLite file), so what it writes is the whole truth.
 */
export interface LedgerStorage {
  /** A subject's counts of windows ending after `nowMs`, and its balance (synchronous: a point read). */
  load(subject: string, nowMs: number): StoredSubject;
  /** Writes counts, balances (absolute values) and remembered operations in one transaction. */
  save(
    counters: StoredCounter[],
    credits: Array<{ subject: string; state: CreditsState }>,
    operations?: StoredOperation[],
  ): void;
  /** The balance a remembered credits operation left, unless it is unknown or expired at `nowMs`. */
  findOperation(id: string, nowMs: number): CreditsState | null;
  /** Deletes counts of windows that started before `beforeMs`, and operations expired at `nowMs`. */
  prune(beforeMs: number, nowMs: number): void;
}

export interface MemoryLedgerOptions {
  storage?: LedgerStorage;
  /** How often held changes are written (ms); `flush()` writes at once. */
  flushIntervalMs?: number;
  clock?: () => number;
}

/**
 * The ledger of a single gateway instance: counts and balances decided in memory, synchronously, so
 * the key check stays synchronous; written behind to storage about once a second and on shutdown.
 * A crash loses at most that second of spending (documented in docs/plans.md).
 */
export function createMemoryLedger(options: MemoryLedgerOptions = {}): BudgetLedger & { close(): void } {
  const { storage } = options;
  const clock = options.clock ?? Date.now;
  const dirtyCredits = new Map<string, CreditsState>();
  /** Operations remembered: written with the next flush, or (without storage) kept here until they expire. */
  const operations = new Map<string, StoredOperation>();
  const table = createCounterSlots(storage, (subject) => dirtyCredits.has(subject));

  function read({ slots, credits }: PolicySlots): BudgetReading {
    const used: number[] = [];
    for (let i = 0; i < slots.length; i++) used.push(slots[i]!.used);
    return { used, credits: credits === null ? null : credits.credits };
  }

  function write(policy: BudgetPolicy, { slots, credits }: PolicySlots, reading: BudgetReading): void {
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      slot.used = reading.used[i]!;
      table.markDirty(slot);
    }
    if (policy.credits && credits && reading.credits) {
      credits.credits = reading.credits;
      dirtyCredits.set(policy.credits.subject, reading.credits);
    }
  }

  function setCredits(subjectId: string, state: CreditsState, nowMs: number): void {
    table.subjectOf(subjectId, nowMs).credits = state;
    dirtyCredits.set(subjectId, state);
  }

  function spendNow(policy: BudgetPolicy, cost: number, nowMs: number) {
    const found = table.slotsOf(policy, nowMs);
    const reading = read(found);
    const verdict = decideBudget(policy, reading, nowMs, cost, found.windows);
    // A refusal spends nothing, but a refill it brought about is kept.
    if (verdict.refusal === null || verdict.credits !== reading.credits) write(policy, found, verdict);
    return verdict;
  }

  function flushNow(): void {
    if (!table.hasDirty() && dirtyCredits.size === 0) return;
    const counters = table.takeDirty();
    const credits = [...dirtyCredits].map(([subject, state]) => ({ subject, state }));
    dirtyCredits.clear();
    if (!storage) return;
    // Storage holds the operations from here: the memory copy is only for a ledger without storage.
    const remembered = [...operations.values()];
    operations.clear();
    storage.save(counters, credits, remembered);
  }

  function operationDone(id: string, nowMs: number): CreditsState | null {
    const held = operations.get(id);
    if (held !== undefined && held.expiresAt > nowMs) return held.state;
    return storage?.findOperation(id, nowMs) ?? null;
  }

  function refilled(line: CreditsLine, nowMs: number): CreditsState {
    return refilledCredits(line, table.subjectOf(line.subject, nowMs).credits, nowMs);
  }

  const timer = storage
    ? setInterval(() => {
        flushNow();
        const nowMs = clock();
        storage.prune(nowMs - 32 * 86_400_000, nowMs);
      }, options.flushIntervalMs ?? 1000)
    : undefined;
  timer?.unref();

  return {
    spendNow,
    spend: async (policy, cost, nowMs) => spendNow(policy, cost, nowMs),
    async adjust(policy, delta, nowMs) {
      const found = table.slotsOf(policy, nowMs);
      const reading = read(found);
      const credits = policy.credits ? refilledCredits(policy.credits, reading.credits, nowMs) : null;
      write(policy, found, adjustReading({ used: reading.used, credits }, delta));
    },
    readCredits: async (policy, nowMs) => refilled(policy.credits, nowMs),
    async changeCredits(policy, operation: CreditsOperation, nowMs, operationId) {
      // Remembered per balance, as the Redis ledger keeps its marker beside the balance.
      const id = operationId === undefined ? undefined : `${policy.credits.subject}:${operationId}`;
      const done = id === undefined ? null : operationDone(id, nowMs);
      if (done !== null) return done;
      const next = applyCreditsOperation(refilled(policy.credits, nowMs), operation);
      setCredits(policy.credits.subject, next, nowMs);
      if (id !== undefined) {
        // Without storage this map is the only copy: forget what has expired (operations are rare).
        for (const [held, remembered] of operations)
          if (remembered.expiresAt <= nowMs) operations.delete(held);
        operations.set(id, {
          id,
          state: next,
          expiresAt: nowMs + IDEMPOTENCY_RETENTION_MS,
        });
      }
      // The balance and the operation reach storage in one transaction, before the answer.
      flushNow();
      return next;
    },
    readUsed: async (policy, nowMs) => read(table.slotsOf(policy, nowMs)).used,
    flush: async () => flushNow(),
    close() {
      if (timer) clearInterval(timer);
      flushNow();
    },
  };
}
