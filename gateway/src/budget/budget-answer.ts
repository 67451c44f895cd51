import { GatewayError } from '../errors.ts';
import type { BudgetVerdict } from './decide.ts';
import { type Span, secondsUntil } from './periods.ts';
import type { BudgetPolicy } from './policy.ts';

const PERIOD_ADJECTIVE: Record<string, string> = { day: 'daily', week: 'weekly', month: 'monthly' };

/** The policy items last built for each policy, with the quota periods they were built for. */
const policyItems = new WeakMap<BudgetPolicy, { windows: readonly Span[]; items: string }>();

/**
 * The IETF RateLimit policy items of a budget (`"minute";q=100;w=60, "month";q=10000;w=2592000`),
 * each named by its limit's name or its quota's period, `w` the length of its current window. Built
 * once per policy and period: a limit's window has a fixed length, a quota's changes with its period.
 */
export function budgetPolicyItems(policy: BudgetPolicy, verdict: BudgetVerdict): string {
  const cached = policyItems.get(policy);
  if (cached && isSameLengths(policy, cached.windows, verdict.windows)) return cached.items;
  let items = '';
  for (let i = 0; i < policy.lines.length; i++) {
    const line = policy.lines[i]!;
    const window = verdict.windows[i]!;
    items += `${i === 0 ? '' : ', '}"${line.name}";q=${line.limit};w=${(window.end - window.start) / 1000}`;
  }
  policyItems.set(policy, { windows: verdict.windows, items });
  return items;
}

/** True when every quota's window is the one the items were built for (a limit's length never changes). */
function isSameLengths(policy: BudgetPolicy, built: readonly Span[], windows: readonly Span[]): boolean {
  if (built === windows) return true;
  for (let i = 0; i < policy.lines.length; i++)
    if (policy.lines[i]!.kind === 'quota' && built[i] !== windows[i]) return false;
  return true;
}

/** The IETF RateLimit items of a budget after a call: what is left of each line and when it resets. */
export function budgetRemainingItems(policy: BudgetPolicy, verdict: BudgetVerdict, nowMs: number): string {
  let items = '';
  for (let i = 0; i < policy.lines.length; i++) {
    const line = policy.lines[i]!;
    const remaining = Math.max(0, line.limit - verdict.used[i]!);
    items += `${i === 0 ? '' : ', '}"${line.name}";r=${remaining};t=${secondsUntil(verdict.windows[i]!.end, nowMs)}`;
  }
  return items;
}

/** The 429 of a refused budget: which limit, quota or balance ran out, and until when (none when nothing refills). */
export function budgetRefusalOf(
  policy: BudgetPolicy,
  verdict: BudgetVerdict,
  cost: number,
  nowMs: number,
): GatewayError {
  const refusal = verdict.refusal!;
  const retryAfter = refusal.retryAt === null ? undefined : secondsUntil(refusal.retryAt, nowMs);
  const resets = refusal.retryAt === null ? '' : new Date(refusal.retryAt).toISOString();
  if (refusal.code === 'CREDITS_EXHAUSTED') {
    const remaining = verdict.credits?.remaining ?? 0;
    return new GatewayError(
      'CREDITS_EXHAUSTED',
      `This call costs ${cost} credit${cost === 1 ? '' : 's'} and ${remaining} remain${
        retryAfter === undefined ? '; add credits to go on.' : `; they refill at ${resets}.`
      }`,
      { creditsRemaining: remaining, cost, ...(retryAfter === undefined ? {} : { retryAfter }) },
    );
  }
  const line = policy.lines[refusal.line]!;
  const extensions = { policy: line.name, limit: line.limit, retryAfter: retryAfter! };
  if (refusal.code === 'QUOTA_EXCEEDED')
    return new GatewayError(
      'QUOTA_EXCEEDED',
      `The ${PERIOD_ADJECTIVE[line.name] ?? line.name} quota of ${line.limit} is used up; it resets at ${resets} (in ${retryAfter} s).`,
      { ...extensions, resetsAt: resets },
    );
  return new GatewayError(
    'RATE_LIMITED',
    `The "${line.name}" limit allows ${line.limit} per ${line.window}; retry in ${retryAfter} s.`,
    extensions,
  );
}
