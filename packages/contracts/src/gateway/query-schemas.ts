import { z } from 'zod';
import { ACTIVITY_ACTIONS } from './model.ts';
import { UsagePeriodSchema } from './outcomes.ts';

/** An ISO-8601 instant with a zone (`2025-03-01T12:00:00Z`), turned into its ISO UTC form. */
export const InstantSchema = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString());

const LimitSchema = z.coerce.number().int().min(1).max(1000);

const CursorSchema = z.string().min(1).max(512);

/** `GET /v2/auth/keys?status=active|revoked`. */
export const ListKeysQuerySchema = z.object({ status: z.enum(['active', 'revoked']).optional() });

/** `GET …/usage?from&to`: instants; default the last 24 hours, at most 31 days. */
export const UsageQuerySchema = z.object({ from: InstantSchema.optional(), to: InstantSchema.optional() });

/** `GET …/activity?action&from&to&limit&cursor`. */
export const ActivityQuerySchema = z.object({
  action: z.enum(ACTIVITY_ACTIONS).optional(),
  from: InstantSchema.optional(),
  to: InstantSchema.optional(),
  limit: LimitSchema.optional(),
  cursor: CursorSchema.optional(),
});

/** `GET …/logs?secretId&from&to&limit&cursor`. */
export const LogsQuerySchema = z.object({
  secretId: z.string().min(1).max(64).optional(),
  from: InstantSchema.optional(),
  to: InstantSchema.optional(),
  limit: LimitSchema.optional(),
  cursor: CursorSchema.optional(),
});

/** `GET …/usage?period=2026-11` (a month, an ISO week `2026-W48` or a day): billing usage of the period. */
export const PeriodUsageQuerySchema = z.object({ period: UsagePeriodSchema });

/** `GET /v2/auth/usage/export?period&format`: one period, CSV (default) or JSON lines. */
export const UsageExportQuerySchema = z.object({
  period: UsagePeriodSchema,
  format: z.enum(['csv', 'jsonl']).default('csv'),
});

/** `GET /v2/auth/keys/{id}/usage?from&to` (traffic) or `?period` (traffic of the period's days, with its billing usage). */
export const KeyUsageQuerySchema = UsageQuerySchema.extend({ period: UsagePeriodSchema.optional() });
