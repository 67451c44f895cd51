import type { LimitWindow, QuotaPeriod } from '@keygate/contracts/gateway';
import { limitWindowOf, quotaPeriodOf, refillSpanOf, type Span } from './periods.ts';
import type { BudgetLine, BudgetPolicy, CreditsLine } from './policy.ts';

/**
 * The budget rules, stated once; the in-process ledger follows them and the Redis script is held to
 * them by a test on random sequences:
 * 1. A call of cost c is admitted only if every line has room (used + c ≤ limit) and the balance,
 *    refilled first if a refill instant passed since the last one, holds at least c.
 * 2. Lines are checked in the policy's order (limits, then quotas), credits last; the first that
 *    lacks room names the refusal.
 * 3. An admitted call spends c on every line and from the balance; a refused call spends nothing
 *    (a refill it triggered stays: refilling is not spending).
 * 4. A balance that was never stored starts empty, so a refill fills it at once; a missing count is 0.
 */

/** A balance as stored: what remains, and the refill instant it was last filled at (epoch ms). */
export interface CreditsState {
  remaining: number;
  refilledAt: number;
}

/** What the store holds for a policy right now: each line's count in its current window, and the balance. */
export interface BudgetReading {
  used: number[];
  credits: CreditsState | null;
}

export type BudgetRefusal =
  | { code: 'RATE_LIMITED' | 'QUOTA_EXCEEDED'; line: number; retryAt: number }
  | { code: 'CREDITS_EXHAUSTED'; retryAt: number | null };

/** The outcome of a call against its policy, with the state after it. */
export interface BudgetVerdict {
  refusal: BudgetRefusal | null;
  /** Each line's current window. */
  windows: Span[];
  /** Each line's count after the call (spent if admitted). */
  used: number[];
  /** The balance after the call (refilled, and spent if admitted); null when the policy has none. */
  credits: CreditsState | null;
  /** The next refill instant of the balance, if it refills. */
  refillAt: number | null;
}

/** The current window of a line. */
export function windowOf(line: BudgetLine, nowMs: number): Span {
  return line.kind === 'limit'
    ? limitWindowOf(line.window as LimitWindow, nowMs)
    : quotaPeriodOf(line.window as QuotaPeriod, nowMs);
}

/** The current window of each of the policy's lines. */
export function windowsOf(policy: BudgetPolicy, nowMs: number): Span[] {
  return policy.lines.map((line) => windowOf(line, nowMs));
}

/** The balance as it stands at `nowMs`: refilled to the refill amount when a refill instant passed since the last. */
export function refilledCredits(line: CreditsLine, state: CreditsState | null, nowMs: number): CreditsState {
  const current = state ?? { remaining: 0, refilledAt: 0 };
  if (line.refill === null) return current;
  const { start } = refillSpanOf(line.refill, nowMs);
  return current.refilledAt < start ? { remaining: line.refill.amount, refilledAt: start } : current;
}

/** Decides a call of `cost` against `policy` given what the store read (rules above). */
export function decideBudget(
  policy: BudgetPolicy,
  reading: BudgetReading,
  nowMs: number,
  cost: number,
  windows: Span[] = windowsOf(policy, nowMs),
): BudgetVerdict {
  const credits = policy.credits ? refilledCredits(policy.credits, reading.credits, nowMs) : null;
  const refillAt = policy.credits?.refill ? refillSpanOf(policy.credits.refill, nowMs).end : null;
  let refusal: BudgetRefusal | null = null;
  for (let i = 0; i < policy.lines.length && refusal === null; i++) {
    const line = policy.lines[i]!;
    if (reading.used[i]! + cost > line.limit)
      refusal = {
        code: line.kind === 'limit' ? 'RATE_LIMITED' : 'QUOTA_EXCEEDED',
        line: i,
        retryAt: windows[i]!.end,
      };
  }
  if (refusal === null && credits !== null && credits.remaining < cost)
    refusal = { code: 'CREDITS_EXHAUSTED', retryAt: refillAt };
  if (refusal !== null) return { refusal, windows, used: reading.used, credits, refillAt };
  const used: number[] = [];
  for (let i = 0; i < reading.used.length; i++) used.push(reading.used[i]! + cost);
  return {
    refusal,
    windows,
    used,
    credits: credits && { remaining: credits.remaining - cost, refilledAt: credits.refilledAt },
    refillAt,
  };
}

/**
 * A charge after the answer (`Keygate-Cost` differing from the route's cost): `delta` more (or, when
 * negative, back) on every line and the balance, without checks: the call already happened. Counts
 * and the balance stay at or above zero.
 */
export function adjustReading(reading: BudgetReading, delta: number): BudgetReading {
  return {
    used: reading.used.map((used) => Math.max(0, used + delta)),
    credits: reading.credits && {
      remaining: Math.max(0, reading.credits.remaining - delta),
      refilledAt: reading.credits.refilledAt,
    },
  };
}
