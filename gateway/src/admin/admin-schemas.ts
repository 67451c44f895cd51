import { z } from 'zod';
import { ActivityQuerySchema, ListKeysQuerySchema, UsageQuerySchema } from '../keys-api/query-schemas.ts';

/** `POST /admin/api/session`: any email-sized string (a malformed one just fails like a wrong one). */
export const LoginInputSchema = z.object({
  email: z.string().trim().min(1, 'enter your email').max(254),
  password: z.string().min(1, 'enter your password').max(1024),
});
/** The parsed login body. */
export type LoginInput = z.infer<typeof LoginInputSchema>;

const EnvironmentSchema = z.enum(['live', 'test']);

/** `GET /admin/api/keys?environment&status`: both environments unless filtered. */
export const AdminListKeysQuerySchema = ListKeysQuerySchema.extend({
  environment: EnvironmentSchema.optional(),
});

/** `GET /admin/api/activity?keyId&environment&action&from&to&limit&cursor`: every key's activity. */
export const GlobalActivityQuerySchema = ActivityQuerySchema.extend({
  keyId: z.string().min(1).max(64).optional(),
  environment: EnvironmentSchema.optional(),
});

/** `GET /admin/api/keys/:id/usage/series?from&to&stepMinutes` (step 1–1440 minutes). */
export const UsageSeriesQuerySchema = UsageQuerySchema.extend({
  stepMinutes: z.coerce.number().int().min(1).max(1440).optional(),
});
