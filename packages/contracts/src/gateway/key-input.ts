import { isScope, normalizeScopes, RESOURCES } from '@keygate/identity';
import { z } from 'zod';
import { formatIpRange, parseIpRange } from './ip-ranges.ts';
import { KeyBudgetInputSchema } from './plans.ts';

export const NAME_MAX_LENGTH = 100;

export const MAX_SCOPES = 50;

export const MAX_IP_ENTRIES = 50;

export const RATE_LIMIT_MIN = 1;

export const RATE_LIMIT_MAX = 100_000;

/** Hard bound of `overlapDays` accepted by the API; the service also caps it by its configured maximum. */
export const OVERLAP_DAYS_MAX = 7;

/** Overlap used when a rotation does not say (one day, so deployments have time to pick the new secret up). */
export const DEFAULT_OVERLAP_DAYS = 1;

/** At least one known scope (`<resource>:r` or `<resource>:rw`); sorted, deduplicated, `x:r` dropped beside `x:rw`. */
export const ScopesSchema = z
  .array(
    z.string().superRefine((value, ctx) => {
      if (!isScope(value)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${value}" is not a scope: use <resource>:r or <resource>:rw with a resource among ${RESOURCES.join(', ')}`,
        });
      }
    }),
  )
  .min(1, 'at least one scope is required')
  .max(MAX_SCOPES, `at most ${MAX_SCOPES} scopes`)
  .transform((scopes) => normalizeScopes(scopes));

/** A calendar date YYYY-MM-DD (the key's last valid day, UTC); "not in the past" is checked against the clock. */
export const ExpiryDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .refine(isCalendarDate, 'not a calendar date');

function isCalendarDate(value: string): boolean {
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(value);
}

/** Up to 50 IPv4/IPv6 addresses or CIDR ranges, canonicalised and deduplicated; empty = any address. */
export const IpAllowlistSchema = z
  .array(
    z
      .string()
      .max(64, 'entry too long')
      .transform((value, ctx) => {
        const range = parseIpRange(value.trim());
        if (typeof range === 'string') {
          ctx.addIssue({ code: 'custom', message: range });
          return z.NEVER;
        }
        return formatIpRange(range);
      }),
  )
  .max(MAX_IP_ENTRIES, `at most ${MAX_IP_ENTRIES} entries`)
  .transform((entries) => [...new Set(entries)]);

/** Requests per minute, 1..100000. */
export const RateLimitSchema = z.strictObject({
  perMinute: z.number().int().min(RATE_LIMIT_MIN).max(RATE_LIMIT_MAX),
});

/**
 * Body of a key creation.
 * - `name` (required): 1–100 characters after trimming.
 * - `environment` (`live` | `test`): required for administrators; a key creating a key may omit
 *   it and gets its own environment (any other is refused).
 * - `scopes` (required): at least one known scope, at most 50.
 * - `expiresAt` (optional, YYYY-MM-DD): last valid day, valid through 23:59:59.999 UTC, not in the past.
 * - `ipAllowlist` (optional, ≤ 50 entries): IPv4/IPv6 addresses or CIDR ranges; empty or absent = any.
 * - `rateLimit.perMinute` (optional, 1–100000): defaults to the configured default (600), or to
 *   the creating key's own limit if that is lower.
 * - `identityId`, `planId`, `credits`, `limits`, `quotas` (optional, plans.ts): the key's budget;
 *   the identity must be in the key's environment.
 * Unknown members are refused.
 */
export const CreateKeyInputSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'name must not be empty')
    .max(NAME_MAX_LENGTH, 'name is limited to 100 characters'),
  environment: z.enum(['live', 'test']).optional(),
  scopes: ScopesSchema,
  expiresAt: ExpiryDateSchema.nullable().optional(),
  ipAllowlist: IpAllowlistSchema.optional(),
  rateLimit: RateLimitSchema.optional(),
  ...KeyBudgetInputSchema.shape,
});

export type CreateKeyInput = z.infer<typeof CreateKeyInputSchema>;

/** Body of a scope change: the complete new scope list. */
export const ChangeScopesInputSchema = z.strictObject({ scopes: ScopesSchema });

export type ChangeScopesInput = z.infer<typeof ChangeScopesInputSchema>;

/** Body of a rotation: `overlapDays` 0..7 (0 closes the old secret at once; default 1). */
export const RotateKeyInputSchema = z.strictObject({
  overlapDays: z.number().int().min(0).max(OVERLAP_DAYS_MAX).default(DEFAULT_OVERLAP_DAYS),
});

export type RotateKeyInput = z.infer<typeof RotateKeyInputSchema>;

/** Body of closing an old secret: optionally which one (default: every old secret still open). */
export const CloseSecretInputSchema = z.strictObject({ secretId: z.string().min(1).max(64).optional() });

export type CloseSecretInput = z.infer<typeof CloseSecretInputSchema>;
