import { GatewayError } from '../errors.ts';
import type { BudgetVerdict } from './decide.ts';
import { type Span, secondsUntil } from './periods.ts';
import type { BudgetPolicy } from './policy.ts';

const PERIOD_ADJECTIVE: Record<string, string> = { day: 'daily', week: 'weekly', month: 'monthly' };

/** What the answers of a policy repeat, built once per policy and quota period. */
interface PolicyAnswer {
  /** The quota periods (each line's window) the items were built for. */
  windows: readonly Span[];
  items: string;
  /** Each line's `, "<name>";r=`: the start of its remaining item. */
  remainingPrefixes: string[];
  /** The `RateLimit-Policy` field last built from `items`, and the key's own item it starts with. */
  field: string;
  perKey: string;
}

const answers = new WeakMap<BudgetPolicy, PolicyAnswer>();

/**
 * The IETF RateLimit policy items of a budget (`"minute";q=100;w=60, "month";q=10000;w=2592000`),
 * each named by its limit's name or its quota's period, `w` the length of its current window. Built
 * once per policy and period: a limit's window has a fixed length, a quota's changes with its period.
 */
function answerOf(policy: BudgetPolicy, verdict: BudgetVerdict): PolicyAnswer {
  const cached = answers.get(policy);
  if (cached && isSameLengths(policy, cached.windows, verdict.windows)) return cached;
  let items = '';
  const remainingPrefixes: string[] = [];
  for (let i = 0; i < policy.lines.length; i++) {
    const line = policy.lines[i]!;
    const window = verdict.windows[i]!;
    items += `${i === 0 ? '' : ', '}"${line.name}";q=${line.limit};w=${(window.end - window.start) / 1000}`;
    remainingPrefixes.push(`, "${line.name}";r=`);
  }
  const answer = { windows: verdict.windows, items, remainingPrefixes, field: '', perKey: '' };
  answers.set(policy, answer);
  return answer;
}

/** True when every quota's window is the one the items were built for (a limit's length never changes). */
function isSameLengths(policy: BudgetPolicy, built: readonly Span[], windows: readonly Span[]): boolean {
  if (built === windows) return true;
  for (let i = 0; i < policy.lines.length; i++)
    if (policy.lines[i]!.kind === 'quota' && built[i] !== windows[i]) return false;
  return true;
}

/** The `RateLimit-Policy` field: the key's own item (`perKey`), then the budget's policy items. */
export function budgetPolicyField(perKey: string, policy: BudgetPolicy, verdict: BudgetVerdict): string {
  const answer = answerOf(policy, verdict);
  if (answer.perKey !== perKey) {
    answer.field = `${perKey}, ${answer.items}`;
    answer.perKey = perKey;
  }
  return answer.field;
}

/**
 * The `RateLimit` field after a call: the key's own item (`perKey`), then what is left of each line
 * of the budget and when it resets.
 */
export function budgetRemainingField(
  perKey: string,
  policy: BudgetPolicy,
  verdict: BudgetVerdict,
  nowMs: number,
): string {
  const { remainingPrefixes } = answerOf(policy, verdict);
  let field = perKey;
  for (let i = 0; i < policy.lines.length; i++) {
    const remaining = Math.max(0, policy.lines[i]!.limit - verdict.used[i]!);
    field += `${remainingPrefixes[i]}${remaining};t=${secondsUntil(verdict.windows[i]!.end, nowMs)}`;
  }
  return field;
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
