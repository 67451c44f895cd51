import { type CreditsOperation, MAX_BUDGET_AMOUNT } from '@keygate/contracts/gateway';
import type { BudgetVerdict, CreditsState } from './decide.ts';
import type { BudgetLine, BudgetPolicy, CreditsLine } from './policy.ts';

/**
 * Where the counts and balances of plans, quotas and credits live, and the one place they are
 * decided and spent. The in-process ledger (memory-ledger.ts) serves a single instance; the Redis
 * ledger decides in one script per subject so that every instance shares one exact budget.
 */
export interface BudgetLedger {
  /** Decides a call of `cost` and spends it if admitted, synchronously: only an in-process ledger has it. */
  spendNow?(policy: BudgetPolicy, cost: number, nowMs: number): BudgetVerdict;
  /** Decides a call of `cost` against the policy and spends it if admitted (decide.ts states the rules). */
  spend(policy: BudgetPolicy, cost: number, nowMs: number): Promise<BudgetVerdict>;
  /** Charges `delta` more (or gives it back when negative) after an answer, unchecked. */
  adjust(policy: BudgetPolicy, delta: number, nowMs: number): Promise<void>;
  /** The balance the policy spends from (its `credits` line) now, refilled if due. */
  readCredits(policy: BudgetPolicy & { credits: CreditsLine }, nowMs: number): Promise<CreditsState>;
  /**
   * Sets, adds to or takes from the policy's balance (never below zero); answers the balance after.
   * With `operationId` (the request's, see keys-api/idempotency.ts) the ledger remembers the
   * operation, in the same write as the balance and for as long as an Idempotency-Key record lasts:
   * the same id again changes nothing and answers the balance the first left. So a retry after a
   * crash between this write and the request's record cannot spend or add twice.
   */
  changeCredits(
    policy: BudgetPolicy & { credits: CreditsLine },
    operation: CreditsOperation,
    nowMs: number,
    operationId?: string,
  ): Promise<CreditsState>;
  /** The counts of the policy's lines in their current windows. */
  readUsed(policy: BudgetPolicy, nowMs: number): Promise<number[]>;
  /** Writes whatever is still held in memory (shutdown); a no-op for a ledger that holds nothing. */
  flush(): Promise<void>;
}

/** The name a line's count is stored under: limits and quotas apart, since a limit may be named `day`. */
export function counterNameOf(line: BudgetLine): string {
  return `${line.kind === 'limit' ? 'l' : 'q'}:${line.name}`;
}

/** The balance after a credits operation on `current` (never below zero nor above the largest amount). */
export function applyCreditsOperation(current: CreditsState, operation: CreditsOperation): CreditsState {
  let remaining: number;
  if ('set' in operation) remaining = operation.set;
  else if ('increment' in operation)
    remaining = Math.min(MAX_BUDGET_AMOUNT, current.remaining + operation.increment);
  else remaining = Math.max(0, current.remaining - operation.decrement);
  return { remaining, refilledAt: current.refilledAt };
}
