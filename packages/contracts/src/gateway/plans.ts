import { z } from 'zod';
import type { Environment } from './model.ts';
import type { PublicKey } from './public-key.ts';

/**
 * Plans, identities and credits: how much a customer may call, not only how fast. The request
 * shapes are contracts (DESIGN.md, "Plans, quotas, credits and identities"): extend, never rename.
 *
 * - A plan holds named rate limits (second, minute, hour windows), quotas per calendar period (day,
 *   week, month; UTC, reset at the period's start) and an optional credits refill.
 * - A key or an identity names at most one plan, and may override any of its limits (by name) or
 *   quotas (by period), or add its own. Precedence: the key's own value, then its identity's, then
 *   the plan. A limit or quota counts on whoever it came from: a key's own on the key, its identity's
 *   and the plan's on the identity when the key has one (one budget per customer), else on the key.
 * - Credits are a balance held by a key or an identity; each call spends the route's cost.
 */

export const LIMIT_WINDOWS = ['second', 'minute', 'hour'] as const;

export type LimitWindow = (typeof LIMIT_WINDOWS)[number];

/** Length of each rate-limit window (the IETF header's `w`). */
export const LIMIT_WINDOW_SECONDS: Record<LimitWindow, number> = { second: 1, minute: 60, hour: 3600 };

export const QUOTA_PERIODS = ['day', 'week', 'month'] as const;

export type QuotaPeriod = (typeof QUOTA_PERIODS)[number];

export const REFILL_INTERVALS = ['daily', 'monthly'] as const;

export type RefillInterval = (typeof REFILL_INTERVALS)[number];

/** Most limits (and most quotas) one plan, key or identity holds. */
export const MAX_PLAN_LIMITS = 10;

/** Largest count of a limit, a quota or a credit balance: exact in a double and in Redis' integers. */
export const MAX_BUDGET_AMOUNT = 1_000_000_000_000;

/** A limit's name: it names the policy in `RateLimit-Policy`, so a token without quotes or spaces. */
export const LimitNameSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9_-]{0,31}$/,
    'a name of 1–32 lower-case letters, digits, "-" or "_", starting with a letter',
  );

const AmountSchema = z.number().int().min(1).max(MAX_BUDGET_AMOUNT);

/** One rate limit: at most `limit` calls (cost units) per fixed window, aligned to the epoch. */
export const PlanLimitSchema = z.strictObject({
  name: LimitNameSchema,
  window: z.enum(LIMIT_WINDOWS),
  limit: AmountSchema,
});

export type PlanLimit = z.infer<typeof PlanLimitSchema>;

/** One quota: at most `limit` cost units per calendar period (UTC; weeks start on Monday). */
export const PlanQuotaSchema = z.strictObject({
  period: z.enum(QUOTA_PERIODS),
  limit: AmountSchema,
});

export type PlanQuota = z.infer<typeof PlanQuotaSchema>;

/**
 * A credits refill: the balance is set back to `amount` at each refill (daily at 00:00 UTC, or
 * monthly at 00:00 UTC of `day`, 1–31, the month's last day when it is shorter; default 1).
 */
export const CreditsRefillSchema = z
  .strictObject({
    interval: z.enum(REFILL_INTERVALS),
    amount: AmountSchema,
    day: z.number().int().min(1).max(31).optional(),
  })
  .refine((refill) => refill.interval === 'monthly' || refill.day === undefined, {
    message: 'day applies to a monthly refill only',
    path: ['day'],
  });

export type CreditsRefill = z.infer<typeof CreditsRefillSchema>;

const uniqueBy =
  <T>(field: (item: T) => string, what: string) =>
  (items: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const value = field(item);
      if (seen.has(value))
        ctx.addIssue({ code: 'custom', path: [index], message: `duplicate ${what} "${value}"` });
      seen.add(value);
    });
  };

export const PlanLimitsSchema = z
  .array(PlanLimitSchema)
  .max(MAX_PLAN_LIMITS, `at most ${MAX_PLAN_LIMITS} limits`)
  .superRefine(uniqueBy((limit) => limit.name, 'limit name'));

export const PlanQuotasSchema = z
  .array(PlanQuotaSchema)
  .max(QUOTA_PERIODS.length)
  .superRefine(uniqueBy((quota) => quota.period, 'quota period'));

const PlanNameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(100, 'name is limited to 100 characters');

/**
 * The balance below which a `credits.low` alert is sent (once per refill period); absent: no such
 * alert. Set on a key, an identity or a plan (the key's, then its identity's, then the plan's).
 */
export const CreditsLowAtSchema = z.number().int().min(1).max(MAX_BUDGET_AMOUNT);

/**
 * A PATCH of the credits config of a key or an identity that holds credits of its own: `lowAt`
 * sets its `credits.low` level, null removes it (the plan's applies again). The balance itself
 * changes through `POST …/credits`.
 */
export const CreditsConfigPatchSchema = z.strictObject({ lowAt: CreditsLowAtSchema.nullable() });

export type CreditsConfigPatch = z.infer<typeof CreditsConfigPatchSchema>;

/** `POST /v2/auth/plans`. */
export const CreatePlanInputSchema = z.strictObject({
  name: PlanNameSchema,
  limits: PlanLimitsSchema.default([]),
  quotas: PlanQuotasSchema.default([]),
  credits: z
    .strictObject({ refill: CreditsRefillSchema, lowAt: CreditsLowAtSchema.optional() })
    .nullable()
    .optional(),
});

export type CreatePlanInput = z.infer<typeof CreatePlanInputSchema>;

/** `PATCH /v2/auth/plans/{id}`: each member given replaces the plan's (limits and quotas as whole lists). */
export const UpdatePlanInputSchema = z
  .strictObject({
    name: PlanNameSchema.optional(),
    limits: PlanLimitsSchema.optional(),
    quotas: PlanQuotasSchema.optional(),
    credits: z
      .strictObject({ refill: CreditsRefillSchema, lowAt: CreditsLowAtSchema.optional() })
      .nullable()
      .optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'nothing to change');

export type UpdatePlanInput = z.infer<typeof UpdatePlanInputSchema>;

/** A plan as stored and answered. */
export interface Plan {
  /** `plan_…` */
  id: string;
  name: string;
  limits: PlanLimit[];
  quotas: PlanQuota[];
  credits: { refill: CreditsRefill; lowAt?: number } | null;
  createdAt: string;
  updatedAt: string;
  /** Bumped on every change; caches compare it. */
  version: number;
}

/** A balance to start with (or set), and its own refill overriding the plan's. */
export const CreditsInputSchema = z.strictObject({
  remaining: z.number().int().min(0).max(MAX_BUDGET_AMOUNT),
  refill: CreditsRefillSchema.nullable().optional(),
  lowAt: CreditsLowAtSchema.optional(),
});

export type CreditsInput = z.infer<typeof CreditsInputSchema>;

/** Overrides a key or an identity holds over its plan (by limit name, by quota period). */
export const BudgetOverridesSchema = z.strictObject({
  limits: PlanLimitsSchema.optional(),
  quotas: PlanQuotasSchema.optional(),
});

/** Metadata of an identity: a JSON object of at most 4 KiB serialized. */
export const IdentityMetaSchema = z
  .record(z.string().max(64), z.unknown())
  .refine((meta) => JSON.stringify(meta).length <= 4096, 'meta is limited to 4 KiB of JSON');

/** `POST /v2/auth/identities`. */
export const CreateIdentityInputSchema = z.strictObject({
  externalId: z.string().trim().min(1, 'externalId must not be empty').max(255),
  environment: z.enum(['live', 'test']).optional(),
  planId: z.string().min(1).max(64).nullable().optional(),
  meta: IdentityMetaSchema.optional(),
  limits: PlanLimitsSchema.optional(),
  quotas: PlanQuotasSchema.optional(),
  credits: CreditsInputSchema.nullable().optional(),
});

export type CreateIdentityInput = z.infer<typeof CreateIdentityInputSchema>;

/** `PATCH /v2/auth/identities/{id}` (the balance changes through its own endpoint; `credits` sets its level). */
export const UpdateIdentityInputSchema = z
  .strictObject({
    planId: z.string().min(1).max(64).nullable().optional(),
    meta: IdentityMetaSchema.optional(),
    limits: PlanLimitsSchema.optional(),
    quotas: PlanQuotasSchema.optional(),
    credits: CreditsConfigPatchSchema.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'nothing to change');

export type UpdateIdentityInput = z.infer<typeof UpdateIdentityInputSchema>;

/** Whether a key or an identity holds a credit balance, and its own refill (null: the plan's, if any). */
export interface CreditsConfig {
  refill: CreditsRefill | null;
  /** The `credits.low` alert level (its own, else the plan's); absent: none. */
  lowAt?: number;
}

/** An identity as stored: the integrator's customer, whose keys share one budget. */
export interface Identity {
  /** `idt_…` */
  id: string;
  /** The integrator's own id of the customer; unique per environment. */
  externalId: string;
  environment: Environment;
  planId: string | null;
  meta: Record<string, unknown>;
  /** Overrides of the plan's limits (by name) and additions. */
  limits: PlanLimit[];
  /** Overrides of the plan's quotas (by period) and additions. */
  quotas: PlanQuota[];
  /** Non-null when the identity holds a credit balance (shared by its keys). */
  credits: CreditsConfig | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/**
 * `POST /v2/auth/keys/{id}/credits` (and the identity's): exactly one of `set`, `increment`,
 * `decrement`. One object with three optional members rather than a union, so every client
 * generates one plain type for it; "exactly one" is checked here (and documented as 1 property).
 */
export const CreditsOperationSchema = z
  .strictObject({
    set: z.number().int().min(0).max(MAX_BUDGET_AMOUNT).optional(),
    increment: z.number().int().min(1).max(MAX_BUDGET_AMOUNT).optional(),
    decrement: z.number().int().min(1).max(MAX_BUDGET_AMOUNT).optional(),
  })
  .refine((operation) => Object.keys(operation).length === 1, 'give exactly one of set, increment, decrement')
  .meta({ minProperties: 1, maxProperties: 1 })
  .transform(
    (operation): CreditsOperation =>
      operation.set !== undefined
        ? { set: operation.set }
        : operation.increment !== undefined
          ? { increment: operation.increment }
          : { decrement: operation.decrement! },
  );

/** One credits operation, as the API takes it. */
export type CreditsOperation = { set: number } | { increment: number } | { decrement: number };

/** Budget fields a key creation accepts beside the existing ones. */
export const KeyBudgetInputSchema = z.strictObject({
  identityId: z.string().min(1).max(64).nullable().optional(),
  planId: z.string().min(1).max(64).nullable().optional(),
  credits: CreditsInputSchema.nullable().optional(),
  limits: PlanLimitsSchema.optional(),
  quotas: PlanQuotasSchema.optional(),
});

/** The budget fields of a stored key (defaults for keys stored before plans existed: null, [], null). */
export interface KeyBudget {
  identityId: string | null;
  planId: string | null;
  limits: PlanLimit[];
  quotas: PlanQuota[];
  credits: CreditsConfig | null;
}

/**
 * `PATCH /v2/auth/keys/{id}`: the key's plan, identity and overrides (each member given replaces the
 * key's), and the `credits.low` level of its own credits.
 */
export const UpdateKeyBudgetInputSchema = z
  .strictObject({
    planId: z.string().min(1).max(64).nullable().optional(),
    identityId: z.string().min(1).max(64).nullable().optional(),
    limits: PlanLimitsSchema.optional(),
    quotas: PlanQuotasSchema.optional(),
    credits: CreditsConfigPatchSchema.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'nothing to change');

export type UpdateKeyBudgetInput = z.infer<typeof UpdateKeyBudgetInputSchema>;

/** `GET /v2/auth/identities?environment&limit&cursor` (a key sees its own environment only). */
export const ListIdentitiesQuerySchema = z.object({
  environment: z.enum(['live', 'test']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().min(1).max(512).optional(),
});

/** `GET /v2/auth/identities/{id}`: the identity and its keys (public views, newest first). */
export interface IdentityWithKeys extends Identity {
  keys: PublicKey[];
}
