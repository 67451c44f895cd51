import type { CreditsOperation } from '@keygate/contracts/gateway';
import { IDEMPOTENCY_RETENTION_MS } from '@keygate/contracts/idempotency';
import {
  adjustReading,
  type BudgetReading,
  type CreditsState,
  decideBudget,
  refilledCredits,
  windowsOf,
} from './decide.ts';
import { applyCreditsOperation, type BudgetLedger, counterNameOf } from './ledger.ts';
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

interface Counter {
  used: number;
  /** When its window ends (epoch ms): dropped from memory after that. */
  end: number;
}

interface Subject {
  /** By `<counter name>@<window start>`. */
  counters: Map<string, Counter>;
  credits: CreditsState | null;
}

export interface MemoryLedgerOptions {
  storage?: LedgerStorage;
  /** How often held changes are written (ms); `flush()` writes at once. */
  flushIntervalMs?: number;
  clock?: () => number;
}

const counterKey = (name: string, windowStart: number) => `${name}@${windowStart}`;

/** How long a count read from storage is kept unless a call touches it (and learns its window's end). */
const LOADED_COUNTER_MS = 32 * 86_400_000;

/**
 * The ledger of a single gateway instance: counts and balances decided in memory, synchronously, so
 * the key check stays synchronous; written behind to storage about once a second and on shutdown.
 * A crash loses at most that second of spending (documented in docs/plans.md).
 */
export function createMemoryLedger(options: MemoryLedgerOptions = {}): BudgetLedger & { close(): void } {
  const { storage } = options;
  const clock = options.clock ?? Date.now;
  const subjects = new Map<string, Subject>();
  const dirtyCounters = new Map<string, StoredCounter>();
  const dirtyCredits = new Map<string, CreditsState>();
  /** Operations remembered: written with the next flush, or (without storage) kept here until they expire. */
  const operations = new Map<string, StoredOperation>();
  let sweepAt = 0;

  function subjectOf(id: string, nowMs: number): Subject {
    let subject = subjects.get(id);
    if (subject === undefined) {
      const stored = storage?.load(id, nowMs) ?? { counters: [], credits: null };
      subject = { counters: new Map(), credits: stored.credits };
      for (const counter of stored.counters)
        subject.counters.set(counterKey(counter.name, counter.windowStart), {
          used: counter.used,
          end: nowMs + LOADED_COUNTER_MS,
        });
      subjects.set(id, subject);
    }
    return subject;
  }

  /**
   * Forgets counts whose window is over, and subjects left with nothing but what storage holds too
   * (read again on their next call). Without storage a balance is the only copy, so it stays.
   */
  function sweep(nowMs: number): void {
    sweepAt = nowMs + 60_000;
    for (const [id, subject] of subjects) {
      for (const [key, counter] of subject.counters) if (counter.end <= nowMs) subject.counters.delete(key);
      for (const [id, operation] of operations) if (operation.expiresAt <= nowMs) operations.delete(id);
      const isHeldElsewhere = subject.credits === null || (storage !== undefined && !dirtyCredits.has(id));
      if (subject.counters.size === 0 && isHeldElsewhere) subjects.delete(id);
    }
  }

  function read(policy: BudgetPolicy, nowMs: number, windows = windowsOf(policy, nowMs)): BudgetReading {
    if (nowMs >= sweepAt) sweep(nowMs);
    const used = policy.lines.map((line, index) => {
      const { start, end } = windows[index]!;
      const counter = subjectOf(line.subject, nowMs).counters.get(counterKey(counterNameOf(line), start));
      if (counter !== undefined) counter.end = end;
      return counter?.used ?? 0;
    });
    const credits = policy.credits ? subjectOf(policy.credits.subject, nowMs).credits : null;
    return { used, credits };
  }

  function write(
    policy: BudgetPolicy,
    reading: BudgetReading,
    nowMs: number,
    windows = windowsOf(policy, nowMs),
  ): void {
    policy.lines.forEach((line, index) => {
      const { start, end } = windows[index]!;
      const name = counterNameOf(line);
      const used = reading.used[index]!;
      subjectOf(line.subject, nowMs).counters.set(counterKey(name, start), { used, end });
      dirtyCounters.set(`${line.subject}\n${counterKey(name, start)}`, {
        subject: line.subject,
        name,
        windowStart: start,
        used,
      });
    });
    if (policy.credits && reading.credits) setCredits(policy.credits.subject, reading.credits, nowMs);
  }

  function setCredits(subjectId: string, state: CreditsState, nowMs: number): void {
    subjectOf(subjectId, nowMs).credits = state;
    dirtyCredits.set(subjectId, state);
  }

  function spendNow(policy: BudgetPolicy, cost: number, nowMs: number) {
    const windows = windowsOf(policy, nowMs);
    const reading = read(policy, nowMs, windows);
    const verdict = decideBudget(policy, reading, nowMs, cost, windows);
    // A refusal spends nothing, but a refill it brought about is kept.
    if (verdict.refusal === null || verdict.credits !== reading.credits)
      write(policy, { used: verdict.used, credits: verdict.credits }, nowMs, windows);
    return verdict;
  }

  function flushNow(): void {
    if (dirtyCounters.size === 0 && dirtyCredits.size === 0) return;
    const counters = [...dirtyCounters.values()];
    const credits = [...dirtyCredits].map(([subject, state]) => ({ subject, state }));
    dirtyCounters.clear();
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
    return refilledCredits(line, subjectOf(line.subject, nowMs).credits, nowMs);
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
      const reading = read(policy, nowMs);
      const credits = policy.credits ? refilledCredits(policy.credits, reading.credits, nowMs) : null;
      write(policy, adjustReading({ used: reading.used, credits }, delta), nowMs);
    },
    readCredits: async (policy, nowMs) => refilled(policy.credits, nowMs),
    async changeCredits(policy, operation: CreditsOperation, nowMs, operationId) {
      // Remembered per balance, as the Redis ledger keeps its marker beside the balance.
      const id = operationId === undefined ? undefined : `${policy.credits.subject}:${operationId}`;
      const done = id === undefined ? null : operationDone(id, nowMs);
      if (done !== null) return done;
      const next = applyCreditsOperation(refilled(policy.credits, nowMs), operation);
      setCredits(policy.credits.subject, next, nowMs);
      if (id !== undefined)
        operations.set(id, {
          id,
          state: next,
          expiresAt: nowMs + IDEMPOTENCY_RETENTION_MS,
        });
      // The balance and the operation reach storage in one transaction, before the answer.
      flushNow();
      return next;
    },
    readUsed: async (policy, nowMs) => read(policy, nowMs).used,
    flush: async () => flushNow(),
    close() {
      if (timer) clearInterval(timer);
      flushNow();
    },
  };
}
