import { CALL_OUTCOMES, CreditsRefillSchema, LIMIT_WINDOWS, QUOTA_PERIODS } from '@keygate/contracts/gateway';
import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { NextCursorSchema, timestamp } from './common.ts';

/** One named rate limit, as answered (the request side is the contracts' PlanLimitSchema). */
export const PlanLimitSchema = responseComponent(
  'PlanLimit',
  z
    .object({
      name: z.string().meta({ description: 'Names the policy in `RateLimit-Policy`.' }),
      window: z.enum(LIMIT_WINDOWS),
      limit: z.number().int().min(1),
    })
    .meta({ description: 'At most `limit` calls (cost units) per fixed window.' }),
);

/** One quota per calendar period. */
export const PlanQuotaSchema = responseComponent(
  'PlanQuota',
  z
    .object({ period: z.enum(QUOTA_PERIODS), limit: z.number().int().min(1) })
    .meta({ description: 'At most `limit` cost units per calendar period (UTC; weeks start on Monday).' }),
);

const RefillSchema = responseComponent(
  'CreditsRefill',
  CreditsRefillSchema.meta({
    description:
      'The balance is set back to `amount` daily at 00:00 UTC, or monthly at 00:00 UTC of `day` (default 1; the month’s last day when shorter).',
  }),
);

const LowAtSchema = z.number().int().min(1).meta({
  description:
    'A `credits.low` alert is sent when the balance falls below this level (once per refill period). Absent: none, or the plan’s for a key or an identity.',
});

/** A plan: named limits, quotas and a credits refill that keys and identities name. */
export const PlanSchema = responseComponent(
  'Plan',
  z.object({
    id: z.string().meta({ description: '`plan_…`' }),
    name: z.string(),
    limits: z.array(PlanLimitSchema),
    quotas: z.array(PlanQuotaSchema),
    credits: z.object({ refill: RefillSchema, lowAt: LowAtSchema.optional() }).nullable(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    version: z.number().int().min(1).meta({ description: 'Bumped on every change.' }),
  }),
);

/** `GET /v2/auth/plans`. */
export const PlanListSchema = responseComponent('PlanList', z.object({ items: z.array(PlanSchema) }));

/** Whether a key or an identity holds credits, and its own refill (null: the plan's, if any). */
export const CreditsConfigSchema = responseComponent(
  'CreditsConfig',
  z
    .object({ refill: RefillSchema.nullable(), lowAt: LowAtSchema.optional() })
    .nullable()
    .meta({ description: 'Non-null when credits are held (each call spends its cost); null: none.' }),
);

/** The budget fields of a key (answered on every key). */
export const keyBudgetFields = {
  identityId: z
    .string()
    .nullable()
    .meta({ description: 'The identity (`idt_…`) whose budget the key shares.' }),
  planId: z.string().nullable().meta({ description: 'The plan (`plan_…`) the key follows.' }),
  limits: z
    .array(PlanLimitSchema)
    .meta({ description: 'The key’s own limits (override the plan’s by name).' }),
  quotas: z.array(PlanQuotaSchema).meta({ description: 'The key’s own quotas (override by period).' }),
  credits: CreditsConfigSchema,
};

const identityFields = {
  id: z.string().meta({ description: '`idt_…`' }),
  externalId: z.string().meta({ description: 'Your own id of the customer; unique per environment.' }),
  environment: z.enum(['live', 'test']),
  planId: z.string().nullable(),
  meta: z.record(z.string(), z.unknown()),
  limits: z
    .array(PlanLimitSchema)
    .meta({ description: 'Overrides of the plan’s limits (by name), shared by its keys.' }),
  quotas: z.array(PlanQuotaSchema).meta({ description: 'Overrides of the plan’s quotas (by period).' }),
  credits: CreditsConfigSchema,
  createdAt: timestamp(),
  updatedAt: timestamp(),
  version: z.number().int().min(1).meta({ description: 'Bumped on every change.' }),
};

/** An identity: an integrator's customer, whose keys share one budget. */
export const IdentitySchema = responseComponent('Identity', z.object(identityFields));

/** A page of identities, newest first. */
export const IdentityPageSchema = responseComponent(
  'IdentityPage',
  z.object({ items: z.array(IdentitySchema), nextCursor: NextCursorSchema }),
);

const CountSchema = z.object({ calls: z.number().int(), cost: z.number().int() });

/** A credit balance: what remains, its refill and when it refills next. */
export const CreditsSchema = responseComponent(
  'Credits',
  z.object({
    remaining: z.number().int(),
    refill: CreditsRefillSchema.nullable(),
    refillsAt: z.iso.datetime().nullable().meta({ description: 'The next refill (UTC), or null when none.' }),
  }),
);

/** Calls and spent cost of one key or identity in one period, by outcome. */
export const PeriodUsageSchema = responseComponent(
  'PeriodUsage',
  z.object({
    period: z.string().meta({ description: 'As asked: `2026-11`, `2026-W48` or `2026-11-28`.' }),
    from: z.string().meta({ description: 'First day (UTC), YYYY-MM-DD.' }),
    to: z.string().meta({ description: 'The day after the last, YYYY-MM-DD.' }),
    total: CountSchema,
    outcomes: z.partialRecord(z.enum(CALL_OUTCOMES), CountSchema),
  }),
);

/** The billing export of a period: CSV or JSON lines. */
export const UsageExportSchema = responseComponent(
  'UsageExport',
  z.string().meta({
    description:
      'One line per subject (identity, or key without identity) and outcome, sorted by subject id then outcome. CSV: `period,subject_type,subject_id,external_id,environment,outcome,calls,cost`; JSON lines: one object per line with `period, subjectType, subjectId, externalId, environment, outcome, calls, cost`.',
  }),
);
