import type { Logger } from 'pino';
import type { Call } from './call.ts';
import type { BudgetGate } from './key-check.ts';

/**
 * Charges the difference between what an upstream said a call cost (`Keygate-Cost`) and what the
 * route's cost already spent: more when it cost more, back when it cost less. The answer is already
 * on its way, so nothing is refused; a failed write is logged, not retried.
 */
export function chargeUpstreamCost(budgets: BudgetGate, clock: () => number, logger: Logger) {
  return (call: Call, cost: number): void => {
    const spent = call.budget!;
    const delta = cost - spent.cost;
    if (delta === 0) return;
    spent.cost = cost;
    budgets.ledger.adjust(spent.policy, delta, clock()).catch((error: unknown) => {
      logger.warn({ err: error, requestId: call.requestId }, 'charging the upstream cost failed');
    });
  };
}
