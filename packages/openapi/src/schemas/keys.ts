import { ActivityQuerySchema, MAX_LISTED_SECRETS } from '@keygate/contracts/gateway';
import { RESOURCES } from '@keygate/identity';
import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { NextCursorSchema, timestamp } from './common.ts';
import { IdentitySchema, keyBudgetFields, PeriodUsageSchema } from './plans.ts';

const EnvironmentSchema = responseComponent(
  'Environment',
  z
    .enum(['live', 'test'])
    .meta({ description: 'A live key reaches only live data, a test key only test data.' }),
);

const ScopeSchema = responseComponent(
  'Scope',
  z
    .enum(RESOURCES.flatMap((resource) => [`${resource}:r`, `${resource}:rw`]))
    .meta({ description: '`<resource>:r` (read) or `<resource>:rw` (read and write; implies `r`).' }),
);

const date = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One secret of a key (`sec_…`): prefix, closing state and use; the secret itself is never shown again. */
export const KeySecretSchema = responseComponent(
  'KeySecret',
  z.object({
    id: z.string().meta({ description: '`sec_…`' }),
    prefix: z.string().meta({ description: 'The displayed prefix of this secret, `kg_<env>_<lookup>`.' }),
    createdAt: timestamp(),
    closesAt: timestamp().nullable().meta({ description: 'When a rotation overlap ends; null: open-ended.' }),
    closedAt: timestamp().nullable(),
    closedReason: z.enum(['manual', 'overlap_ended', 'revoked']).nullable(),
    usable: z.boolean().meta({ description: 'True while the secret authenticates.' }),
    callCount: z.number().int().min(0),
    lastCallAt: timestamp().nullable(),
  }),
);

const keyFields = {
  id: z.string().meta({ description: '`key_…`' }),
  prefix: z
    .string()
    .meta({ description: 'The displayed prefix of the newest secret, e.g. `kg_live_7Hq2xPab`.' }),
  name: z.string(),
  environment: EnvironmentSchema,
  scopes: z.array(ScopeSchema),
  expiresAt: date()
    .nullable()
    .meta({ description: 'Last valid day (YYYY-MM-DD, through 23:59:59.999 UTC); null: no expiry.' }),
  ipAllowlist: z.array(z.string()).meta({ description: 'IPv4/IPv6 addresses and CIDR ranges; empty: any.' }),
  rateLimit: z.object({ perMinute: z.number().int().min(1) }),
  status: z.enum(['active', 'revoked']),
  revokedAt: timestamp().nullable(),
  expired: z.boolean().meta({ description: 'True once the last valid day is over.' }),
  expiryReminder: z
    .object({ expiresAt: date(), daysLeft: z.number().int().min(1) })
    .nullable()
    .meta({ description: 'Set while the key is within the reminder lead time of its expiry.' }),
  lastCallAt: timestamp().nullable(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  version: z.number().int().min(1).meta({ description: 'Bumped on every change.' }),
  ...keyBudgetFields,
  rotation: z.object({
    inProgress: z.boolean().meta({ description: 'True while an older secret still authenticates.' }),
    secrets: z
      .array(KeySecretSchema)
      .max(MAX_LISTED_SECRETS)
      .meta({ description: 'Secrets newest first, with call counts per secret.' }),
  }),
};

/** An API key as key management shows it, without any secret. */
export const ApiKeySchema = responseComponent('ApiKey', z.object(keyFields));

/** An API key just created or rotated, with its full token: shown this once. */
export const ApiKeyWithSecretSchema = responseComponent(
  'ApiKeyWithSecret',
  z.object({
    ...keyFields,
    secret: z
      .string()
      .regex(/^kg_(live|test)_[0-9A-Za-z]{8}_[0-9A-Za-z]{28}$/)
      .meta({ description: 'The API key token. Shown only in this response; store it now.' }),
  }),
);

/** `GET /v2/auth/identities/{id}`: the identity and its keys. */
export const IdentityWithKeysSchema = responseComponent(
  'IdentityWithKeys',
  IdentitySchema.extend({
    keys: z.array(ApiKeySchema).meta({ description: 'The identity’s keys (any status), newest first.' }),
  }),
);

/** `GET /v2/auth/keys`: the keys that match the filters. */
export const ApiKeyListSchema = responseComponent('ApiKeyList', z.object({ items: z.array(ApiKeySchema) }));

const UsageStatsSchema = responseComponent(
  'UsageStats',
  z.object({
    calls: z.number().int().min(0),
    errors4xx: z.number().int().min(0),
    errors5xx: z.number().int().min(0),
    latencyMs: z
      .object({ mean: z.number(), p50: z.number(), p95: z.number(), p99: z.number() })
      .nullable()
      .meta({ description: 'Gateway-measured latency in ms; null without calls.' }),
    lastCallAt: timestamp().nullable(),
  }),
);

/** Calls of a key over a time range: totals, per secret and over time. */
export const KeyUsageSchema = responseComponent(
  'KeyUsage',
  z.object({
    keyId: z.string(),
    from: timestamp(),
    to: timestamp(),
    totals: UsageStatsSchema,
    secrets: z.array(UsageStatsSchema.extend({ secretId: z.string() })),
    billing: PeriodUsageSchema.optional().meta({
      description: 'With `period`: calls and spent cost of the period by outcome, as billed.',
    }),
  }),
);

const ActivityActionSchema = ActivityQuerySchema.shape.action.unwrap();

/** One change made to a key (`act_…`): action, actor, source IP, and the key before and after. */
export const ActivityEntrySchema = responseComponent(
  'ActivityEntry',
  z.object({
    id: z.string().meta({ description: '`act_…`' }),
    keyId: z.string(),
    environment: EnvironmentSchema,
    action: ActivityActionSchema,
    actor: z.object({ type: z.enum(['key', 'admin', 'system']), id: z.string() }),
    at: timestamp(),
    sourceIp: z.string().nullable(),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
    details: z.record(z.string(), z.unknown()),
  }),
);

/** A page of a key's activity, newest first. */
export const ActivityPageSchema = responseComponent(
  'ActivityPage',
  z.object({ items: z.array(ActivityEntrySchema), nextCursor: NextCursorSchema }),
);

/** A body as a test key's log line keeps it. */
const LoggedBodySchema = responseComponent(
  'LoggedBody',
  z.object({
    contentType: z.string(),
    text: z.string().meta({
      description:
        'The body as UTF-8 text, at most 16 KiB; secrets (`secret` members, `whsec_…`, keygate tokens) replaced by `[redacted]`.',
    }),
    truncated: z.boolean().meta({ description: 'The body was longer than 16 KiB and is cut.' }),
  }),
);

/** One call made with a key, as the gateway logged it. */
export const ApiLogEntrySchema = responseComponent(
  'ApiLogEntry',
  z.object({
    id: z.string().meta({ description: 'The gateway request id (`req_…`, also sent as X-Request-Id).' }),
    keyId: z.string(),
    secretId: z.string(),
    at: timestamp(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    latencyMs: z.number(),
    clientIp: z.string(),
    traceId: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .optional()
      .meta({
        description:
          'The W3C trace id of the call, when the gateway traced and sampled it: find its trace in your tracing backend.',
      }),
    bodies: z
      .object({ request: LoggedBodySchema.nullable(), response: LoggedBodySchema.nullable() })
      .optional()
      .meta({
        description:
          'Test keys only (the sandbox): the request and response bodies, JSON or text only (null otherwise, or without a body). Never a header. Live keys keep no bodies.',
      }),
  }),
);

/** A page of a key's call log, newest first. */
export const ApiLogPageSchema = responseComponent(
  'ApiLogPage',
  z.object({ items: z.array(ApiLogEntrySchema), nextCursor: NextCursorSchema }),
);
