import type {
  Actor,
  ApiKey,
  CallOutcome,
  CreditsOperation,
  CreditsRefill,
  Identity,
  PeriodSpan,
} from '@keygate/contracts/gateway';
import { CALL_OUTCOMES } from '@keygate/contracts/gateway';
import type { BudgetLedger } from '../budget/ledger.ts';
import { refillSpanOf } from '../budget/periods.ts';
import { type BudgetPolicy, type CreditsLine, resolvePolicy } from '../budget/policy.ts';
import type { BudgetUsageRow, BudgetUsageStore } from '../budget/usage-meter.ts';
import { GatewayError } from '../errors.ts';
import { resolveActorKey } from '../keys/change-runner.ts';
import { keyNotFound } from '../keys/escalation.ts';
import { identityNotFound } from '../keys/key-budget.ts';
import type { KeyStore } from '../store/store.ts';

/** A balance as the API shows it. */
export interface CreditsView {
  remaining: number;
  /** The refill that applies (the holder's own, else its plan's), or null. */
  refill: CreditsRefill | null;
  /** When it refills next (ISO), or null. */
  refillsAt: string | null;
}

/** Calls and spent cost of one subject in one period, by outcome. */
export interface PeriodUsage {
  period: string;
  /** First day (inclusive) and the day after the last (exclusive), YYYY-MM-DD (UTC). */
  from: string;
  to: string;
  total: { calls: number; cost: number };
  outcomes: Partial<Record<CallOutcome, { calls: number; cost: number }>>;
}

/** One line of a billing export: one subject's calls and cost of one outcome in the period. */
export interface ExportRow {
  period: string;
  subjectType: 'identity' | 'key';
  subjectId: string;
  /** The identity's external id (empty for a key). */
  externalId: string;
  environment: string;
  outcome: CallOutcome;
  calls: number;
  cost: number;
}

export interface BudgetServiceDeps {
  store: KeyStore;
  ledger: BudgetLedger;
  usage: Pick<BudgetUsageStore, 'readBudgetUsage' | 'listBudgetUsage'>;
  clock: () => number;
}

/**
 * Credits and billing usage of keys and identities: what the API, the CLI and the admin interface
 * read and change. A key actor sees only its own environment (404 otherwise), as for keys.
 */
export function createBudgetService(deps: BudgetServiceDeps) {
  const { store, ledger, usage, clock } = deps;

  async function readableKey(actor: Actor, keyId: string): Promise<ApiKey> {
    const actorKey = await resolveActorKey(deps, actor);
    const key = await store.getKey(keyId);
    if (!key || (actorKey && key.environment !== actorKey.environment)) throw keyNotFound(keyId);
    return key;
  }

  async function readableIdentity(actor: Actor, identityId: string): Promise<Identity> {
    const actorKey = await resolveActorKey(deps, actor);
    const identity = await store.getIdentity(identityId);
    if (!identity || (actorKey && identity.environment !== actorKey.environment))
      throw identityNotFound(identityId);
    return identity;
  }

  /** The policy whose balance is the key's own, or a 409 when the key spends none of its own. */
  async function keyBalancePolicy(key: ApiKey): Promise<BudgetPolicy & { credits: CreditsLine }> {
    const identity = key.identityId ? await store.getIdentity(key.identityId) : null;
    const [keyPlan, identityPlan] = await Promise.all([
      key.planId ? store.getPlan(key.planId) : null,
      identity?.planId ? store.getPlan(identity.planId) : null,
    ]);
    const policy = resolvePolicy({ key, identity, keyPlan, identityPlan });
    if (!policy?.credits || policy.credits.subject !== key.id)
      throw new GatewayError(
        'CREDITS_NOT_HELD',
        key.identityId
          ? `Key ${key.id} spends the credits of its identity ${key.identityId}: change them there.`
          : `Key ${key.id} holds no credits: create it with credits, or give it a plan with a credits refill.`,
      );
    return policy as BudgetPolicy & { credits: CreditsLine };
  }

  async function identityBalancePolicy(identity: Identity): Promise<BudgetPolicy & { credits: CreditsLine }> {
    const plan = identity.planId ? await store.getPlan(identity.planId) : null;
    const refill = identity.credits?.refill ?? plan?.credits?.refill ?? null;
    if (!identity.credits && !plan?.credits)
      throw new GatewayError(
        'CREDITS_NOT_HELD',
        `Identity ${identity.id} holds no credits: create it with credits, or give it a plan with a credits refill.`,
      );
    return { lines: [], credits: { subject: identity.id, refill } };
  }

  async function viewOf(
    policy: BudgetPolicy & { credits: CreditsLine },
    operation?: CreditsOperation,
    operationId?: string,
  ) {
    const nowMs = clock();
    const state = operation
      ? await ledger.changeCredits(policy, operation, nowMs, operationId)
      : await ledger.readCredits(policy, nowMs);
    const { refill } = policy.credits;
    return {
      remaining: state.remaining,
      refill,
      refillsAt: refill ? new Date(nextRefillOf(refill, nowMs)).toISOString() : null,
    } satisfies CreditsView;
  }

  return {
    /** A key's own balance (409 CREDITS_NOT_HELD when it spends none of its own). */
    keyCredits: async (actor: Actor, keyId: string) =>
      viewOf(await keyBalancePolicy(await readableKey(actor, keyId))),
    /**
     * Sets, adds to or takes from a key's own balance; answers the balance after. `operationId`
     * (BudgetLedger.changeCredits) makes a repeat of the same request change nothing.
     */
    changeKeyCredits: async (
      actor: Actor,
      keyId: string,
      operation: CreditsOperation,
      operationId?: string,
    ) => viewOf(await keyBalancePolicy(await readableKey(actor, keyId)), operation, operationId),
    /** An identity's balance, shared by its keys. */
    identityCredits: async (actor: Actor, identityId: string) =>
      viewOf(await identityBalancePolicy(await readableIdentity(actor, identityId))),
    /** Sets, adds to or takes from an identity's balance. */
    changeIdentityCredits: async (
      actor: Actor,
      identityId: string,
      operation: CreditsOperation,
      operationId?: string,
    ) =>
      viewOf(await identityBalancePolicy(await readableIdentity(actor, identityId)), operation, operationId),
    /** Calls and cost of a key in a period, by outcome. */
    async keyUsage(actor: Actor, keyId: string, period: PeriodSpan): Promise<PeriodUsage> {
      await readableKey(actor, keyId);
      return summarize(period, await usage.readBudgetUsage(keyId, period.from, period.to));
    },
    /** Calls and cost of an identity (all its keys) in a period, by outcome. */
    async identityUsage(actor: Actor, identityId: string, period: PeriodSpan): Promise<PeriodUsage> {
      await readableIdentity(actor, identityId);
      return summarize(period, await usage.readBudgetUsage(identityId, period.from, period.to));
    },
    /**
     * Every identity's usage in a period, and that of keys without an identity, so each call is
     * billed once; sorted by subject id, then outcome, so two exports of a closed period are the same.
     */
    async exportUsage(actor: Actor, period: PeriodSpan): Promise<ExportRow[]> {
      const actorKey = await resolveActorKey(deps, actor);
      const rows = await usage.listBudgetUsage(period.from, period.to);
      const totals = new Map<string, { calls: number; cost: number }>();
      for (const row of rows) {
        const id = `${row.subject}\n${row.outcome}`;
        const total = totals.get(id) ?? { calls: 0, cost: 0 };
        total.calls += row.calls;
        total.cost += row.cost;
        totals.set(id, total);
      }
      const subjects = [...new Set(rows.map((row) => row.subject))].sort();
      const out: ExportRow[] = [];
      for (const subject of subjects) {
        const holder = await subjectOf(subject);
        if (holder === null) continue;
        if (actorKey && holder.environment !== actorKey.environment) continue;
        for (const outcome of CALL_OUTCOMES) {
          const total = totals.get(`${subject}\n${outcome}`);
          if (total) out.push({ period: period.period, ...holder, outcome, ...total });
        }
      }
      return out;
    },
  };

  /** The export's subject fields, or null for a key billed through its identity (or gone). */
  async function subjectOf(subject: string) {
    if (subject.startsWith('idt_')) {
      const identity = await store.getIdentity(subject);
      return {
        subjectType: 'identity' as const,
        subjectId: subject,
        externalId: identity?.externalId ?? '',
        environment: identity?.environment ?? '',
      };
    }
    const key = await store.getKey(subject);
    if (key?.identityId) return null;
    return {
      subjectType: 'key' as const,
      subjectId: subject,
      externalId: '',
      environment: key?.environment ?? '',
    };
  }
}

export type BudgetService = ReturnType<typeof createBudgetService>;

/** Totals of a subject's rows in a period. */
function summarize(period: PeriodSpan, rows: BudgetUsageRow[]): PeriodUsage {
  const outcomes: PeriodUsage['outcomes'] = {};
  const total = { calls: 0, cost: 0 };
  for (const row of rows) {
    const sum = outcomes[row.outcome] ?? { calls: 0, cost: 0 };
    sum.calls += row.calls;
    sum.cost += row.cost;
    outcomes[row.outcome] = sum;
    total.calls += row.calls;
    total.cost += row.cost;
  }
  return { period: period.period, from: period.from, to: period.to, total, outcomes };
}

/** The next refill instant after `nowMs`. */
function nextRefillOf(refill: CreditsRefill, nowMs: number): number {
  return refillSpanOf(refill, nowMs).end;
}
