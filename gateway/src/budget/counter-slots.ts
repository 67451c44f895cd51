import { type CreditsState, windowsOf } from './decide.ts';
import { counterNameOf } from './ledger.ts';
import type { LedgerStorage, StoredCounter } from './memory-ledger.ts';
import { commonSpanOf, type Span } from './periods.ts';
import type { BudgetPolicy } from './policy.ts';

/**
 * A line's count in one window, held in memory: one object per subject, counter and window, changed
 * in place by every call, so every policy that counts on it (keys sharing an identity) sees one count.
 */
export interface CounterSlot {
  subject: string;
  name: string;
  windowStart: number;
  used: number;
  /** When its window ends (epoch ms): dropped from memory after that. */
  end: number;
  /** Changed since it was last handed to storage. */
  isDirty: boolean;
}

/** What the ledger holds of a subject: its counts by `<counter name>@<window start>`, and its balance. */
export interface HeldSubject {
  counters: Map<string, CounterSlot>;
  credits: CreditsState | null;
}

/**
 * What a policy's calls touch, found once per window rather than per call: each line's current
 * window and slot, and the subject holding its balance.
 */
export interface PolicySlots {
  /** Each line's current window (the same array for every call while the windows last). */
  windows: Span[];
  slots: CounterSlot[];
  credits: HeldSubject | null;
  /** Valid for `nowMs` in [from, until), until the next sweep (its generation). */
  from: number;
  until: number;
  generation: number;
}

export interface CounterSlots {
  /** The subject's counts and balance, read from storage on its first use. */
  subjectOf(id: string, nowMs: number): HeldSubject;
  /** The policy's windows and slots at `nowMs` (a missing count starts at 0). */
  slotsOf(policy: BudgetPolicy, nowMs: number): PolicySlots;
  /** Notes a slot whose count changed, for the next write (with storage). */
  markDirty(slot: CounterSlot): void;
  /** True when a count changed since the last `takeDirty()`. */
  hasDirty(): boolean;
  /** The counts changed since the last call, as storage takes them. */
  takeDirty(): StoredCounter[];
}

/** How long a count read from storage is kept unless a call touches it (and learns its window's end). */
const LOADED_COUNTER_MS = 32 * 86_400_000;

/**
 * The ledger's counts in memory. A call finds its policy's slots in one lookup and changes them in
 * place: the window arithmetic, the counter names and their map lookups happen once per window and
 * policy, not on every call of the hot path.
 */
export function createCounterSlots(
  storage: LedgerStorage | undefined,
  isCreditsDirty: (subject: string) => boolean,
): CounterSlots {
  const subjects = new Map<string, HeldSubject>();
  const policies = new WeakMap<BudgetPolicy, PolicySlots>();
  let dirty: CounterSlot[] = [];
  let sweepAt = 0;
  // Bumped by every sweep: a subject or slot it dropped may still be named by a policy's slots.
  let generation = 0;

  function subjectOf(id: string, nowMs: number): HeldSubject {
    let subject = subjects.get(id);
    if (subject === undefined) {
      const stored = storage?.load(id, nowMs) ?? { counters: [], credits: null };
      subject = { counters: new Map(), credits: stored.credits };
      for (const { name, windowStart, used } of stored.counters)
        subject.counters.set(`${name}@${windowStart}`, {
          subject: id,
          name,
          windowStart,
          used,
          end: nowMs + LOADED_COUNTER_MS,
          isDirty: false,
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
    generation++;
    for (const [id, subject] of subjects) {
      for (const [key, slot] of subject.counters) if (slot.end <= nowMs) subject.counters.delete(key);
      const isHeldElsewhere = subject.credits === null || (storage !== undefined && !isCreditsDirty(id));
      if (subject.counters.size === 0 && isHeldElsewhere) subjects.delete(id);
    }
  }

  function findSlots(policy: BudgetPolicy, nowMs: number): PolicySlots {
    const windows = windowsOf(policy, nowMs);
    const slots = policy.lines.map((line, index) => {
      const { start, end } = windows[index]!;
      const name = counterNameOf(line);
      const { counters } = subjectOf(line.subject, nowMs);
      const key = `${name}@${start}`;
      let slot = counters.get(key);
      if (slot === undefined) {
        slot = { subject: line.subject, name, windowStart: start, used: 0, end, isDirty: false };
        counters.set(key, slot);
      }
      slot.end = end;
      return slot;
    });
    const credits = policy.credits ? subjectOf(policy.credits.subject, nowMs) : null;
    const { start: from, end: until } = commonSpanOf(windows);
    const found = { windows, slots, credits, from, until, generation };
    policies.set(policy, found);
    return found;
  }

  return {
    subjectOf,
    slotsOf(policy, nowMs) {
      if (nowMs >= sweepAt) sweep(nowMs);
      const found = policies.get(policy);
      if (
        found !== undefined &&
        found.generation === generation &&
        nowMs >= found.from &&
        nowMs < found.until
      )
        return found;
      return findSlots(policy, nowMs);
    },
    markDirty(slot) {
      // Without storage there is nothing to write: the memory is the only copy.
      if (slot.isDirty || storage === undefined) return;
      slot.isDirty = true;
      dirty.push(slot);
    },
    hasDirty: () => dirty.length > 0,
    takeDirty() {
      const taken = dirty.map(({ subject, name, windowStart, used }) => ({
        subject,
        name,
        windowStart,
        used,
      }));
      for (const slot of dirty) slot.isDirty = false;
      dirty = [];
      return taken;
    },
  };
}
