import { IDEMPOTENCY_RETENTION_MS } from '@keygate/contracts/idempotency';
import type { BudgetRefusal, BudgetVerdict, CreditsState } from '../../budget/decide.ts';
import { windowOf } from '../../budget/decide.ts';
import { type BudgetLedger, counterNameOf } from '../../budget/ledger.ts';
import { commonSpanOf, refillSpanOf, type Span } from '../../budget/periods.ts';
import type { BudgetPolicy } from '../../budget/policy.ts';
import type { BudgetOperation, BudgetReply } from './budget-batch.ts';
import type { RedisKeyLayout, RedisKeyNames } from './keys.ts';
import type { ScriptRunner } from './scripts.ts';

/**
 * The budget of a policy lives in one slot group: its identity's when any line or the balance is the
 * identity's (shared by every key of it), else its key's. So one script call decides a call on a
 * Cluster; a key of an identity therefore holds no balance of its own (the API refuses one).
 */
function homeOf(layout: RedisKeyLayout, policy: BudgetPolicy): RedisKeyNames {
  const subjects = policy.lines.map((line) => line.subject);
  if (policy.credits) subjects.push(policy.credits.subject);
  const identity = subjects.find((subject) => subject.startsWith('idt_'));
  return layout.forKey(identity ?? subjects[0]!);
}

/**
 * The operation's hashes: one per subject with lines or the balance (the balance's first when it
 * has lines of its own too), each with its lines in policy order.
 */
function hashesOf(
  names: RedisKeyNames,
  policy: BudgetPolicy,
  windows: readonly Span[],
  nowMs: number,
): Pick<BudgetOperation, 'hashes' | 'credits'> {
  const bySubject = new Map<string, BudgetOperation['hashes'][number]>();
  const hashOf = (subject: string) => {
    const known = bySubject.get(subject);
    if (known) return known;
    const hash: BudgetOperation['hashes'][number] = { name: names.budget(subject), lines: [] };
    bySubject.set(subject, hash);
    return hash;
  };
  const line = policy.credits;
  if (line) hashOf(line.subject);
  policy.lines.forEach((budgetLine, at) => {
    hashOf(budgetLine.subject).lines.push({
      at,
      field: counterNameOf(budgetLine),
      windowStart: windows[at]!.start,
      limit: budgetLine.limit,
    });
  });
  const credits = line && {
    hash: 0,
    refillAmount: line.refill?.amount ?? 0,
    refillStart: line.refill ? refillSpanOf(line.refill, nowMs).start : 0,
  };
  return { hashes: [...bySubject.values()], credits };
}

/**
 * A policy's operation shape while every one of its windows (and its balance's refill span) stays the
 * same, `nowMs` in [from, until): the hashes, fields and window starts the script is sent, shared
 * read-only by the operations of that time. Policies are cached objects (policy-cache.ts), so a key's
 * calls find theirs in one WeakMap lookup.
 */
interface Prepared extends Pick<BudgetOperation, 'hashes' | 'credits'> {
  from: number;
  until: number;
  windows: Span[];
  refillAt: number | null;
}

/**
 * The ledger every instance shares through Redis: each call's lines and balance decided and spent in
 * one script (BUDGET_BATCH), batched with the other calls of the turn, so N instances together admit
 * exactly a quota. Follows budget/decide.ts, which a test holds it to.
 */
export function createRedisLedger(
  layout: RedisKeyLayout,
  run: (operation: BudgetOperation) => Promise<BudgetReply>,
  changeCreditsScript: ScriptRunner,
): BudgetLedger {
  /** What a policy's operations carry, worked out once per window (see Prepared), not per call. */
  const prepared = new WeakMap<BudgetPolicy, Prepared>();

  function prepare(policy: BudgetPolicy, nowMs: number): Prepared {
    const known = prepared.get(policy);
    if (known !== undefined && nowMs >= known.from && nowMs < known.until) return known;
    const windows = policy.lines.map((line) => windowOf(line, nowMs));
    const refill = policy.credits?.refill ? refillSpanOf(policy.credits.refill, nowMs) : null;
    const { start: from, end: until } = commonSpanOf(refill ? [...windows, refill] : windows);
    const refillAt = refill?.end ?? null;
    const shape = hashesOf(homeOf(layout, policy), policy, windows, nowMs);
    const fresh: Prepared = { from, until, windows, refillAt, ...shape };
    prepared.set(policy, fresh);
    return fresh;
  }

  function operationOf(policy: BudgetPolicy, mode: BudgetOperation['mode'], amount: number, nowMs: number) {
    const ready = prepare(policy, nowMs);
    const operation: BudgetOperation = { mode, amount, hashes: ready.hashes, credits: ready.credits };
    return { operation, ready };
  }

  function creditsOperation(policy: BudgetPolicy, nowMs: number): BudgetOperation {
    const { hashes, credits } = hashesOf(
      homeOf(layout, policy),
      { lines: [], credits: policy.credits },
      [],
      nowMs,
    );
    return { mode: 'r', amount: 0, hashes, credits };
  }

  const stateOf = (reply: BudgetReply): CreditsState => reply.credits ?? { remaining: 0, refilledAt: 0 };

  return {
    async spend(policy, cost, nowMs): Promise<BudgetVerdict> {
      const { operation, ready } = operationOf(policy, 's', cost, nowMs);
      const { windows, refillAt } = ready;
      const reply = await run(operation);
      let refusal: BudgetRefusal | null = null;
      if (reply.refusal > 0) {
        const line = policy.lines[reply.refusal - 1]!;
        refusal = {
          code: line.kind === 'limit' ? 'RATE_LIMITED' : 'QUOTA_EXCEEDED',
          line: reply.refusal - 1,
          retryAt: windows[reply.refusal - 1]!.end,
        };
      } else if (reply.refusal < 0) refusal = { code: 'CREDITS_EXHAUSTED', retryAt: refillAt };
      return { refusal, windows, used: reply.used, credits: reply.credits, refillAt };
    },
    async adjust(policy, delta, nowMs) {
      await run(operationOf(policy, 'a', delta, nowMs).operation);
    },
    readCredits: async (policy, nowMs) => stateOf(await run(creditsOperation(policy, nowMs))),
    // Its own script, not the per-call batch: an operation is rare, and carries its marker (CHANGE_CREDITS).
    async changeCredits(policy, operation, nowMs, operationId) {
      // The balance's hash and refill, as a read of it is sent.
      const { hashes, credits } = creditsOperation(policy, nowMs);
      const name = hashes[0]!.name;
      const { refillAmount, refillStart } = credits!;
      const [kind, amount] =
        'set' in operation
          ? (['set', operation.set] as const)
          : 'increment' in operation
            ? (['inc', operation.increment] as const)
            : (['dec', operation.decrement] as const);
      const marker =
        operationId === undefined
          ? name
          : homeOf(layout, policy).budgetOperation(policy.credits.subject, operationId);
      const until = operationId === undefined ? 0 : nowMs + IDEMPOTENCY_RETENTION_MS;
      const reply = await changeCreditsScript(
        2,
        name,
        marker,
        refillAmount,
        refillStart,
        kind,
        amount,
        until,
        nowMs,
      );
      const [remaining, refilledAt] = reply as [number, number];
      return { remaining: Number(remaining), refilledAt: Number(refilledAt) };
    },
    readUsed: async (policy, nowMs) => (await run(operationOf(policy, 'r', 0, nowMs).operation)).used,
    flush: async () => {},
  };
}
