import { randomBytes } from 'node:crypto';
import type { Environment, KeyStatus } from '../../model/model.ts';

/**
 * The Redis data layout of the key store. Every name starts with the prefix P (default
 * `keygate:`), so deployments and tests can share one Redis. Lex indexes hold members
 * `<at> <id>` with score 0: a space sorts below every character of an ISO instant, so member
 * order is exactly (at, id) order, which is what page cursors need.
 *
 * | name                              | type   | content                                                    |
 * |-----------------------------------|--------|------------------------------------------------------------|
 * | P key:<id>                        | hash   | data (key JSON without version/lastCallAt), version,       |
 * |                                   |        | environment, status, lastCallAt (absent = null)            |
 * | P key:<id>:secrets                | zset   | secret ids, score = createdAt (ms)                         |
 * | P secret:<id>                     | hash   | keyId, data (immutable JSON), closing (closesAt/closedAt/  |
 * |                                   |        | closedReason JSON), callCount, lastCallAt, tag (set after  |
 * |                                   |        | the first verification of a secret stored without one)     |
 * | P lookups                         | hash   | token lookup → secret id (unique)                          |
 * | P keys:all, P keys:env:<e>,       | zset   | key ids, score = createdAt (ms)                            |
 * | P keys:status:<s>, P keys:env:<e>:status:<s> |  |                                                    |
 * | P activity                        | hash   | activity id → entry JSON                                   |
 * | P activity:all / :key:<id> / :env:<e> | zset (lex) | `<at> <id>` of activity entries                   |
 * | P usage:<keyId>:<secretId>:<minute> | hash | calls, errors4xx, errors5xx, latencyMsSum, lastCallAt,     |
 * |                                   |        | slots (histogram width), h<i> (non-zero histogram slots)   |
 * | P usage:index:<keyId>             | zset   | `<minute>:<secretId>`, score = minute                      |
 * | P usage:keys                      | set    | ids of keys that have usage buckets                        |
 * | P usage:flush:<flushId>:<n>       | string | marker of a usage chunk already applied (TTL 7 days)       |
 * | P logs:<keyId>                    | zset (lex) | `<at> <id>` of API log lines                           |
 * | P logs:<keyId>:lines              | hash   | request id → log line JSON                                 |
 * | P logs:keys                       | set    | ids of keys that have log lines                            |
 * | P sweep:closing                   | zset   | `<keyId> <secretId>` of open secrets with an overlap end,  |
 * |                                   |        | score = closesAt (ms)                                      |
 * | P sweep:expiry                    | zset   | ids of active keys with expiresAt, score = expiry end (ms) |
 * | P sweep:ready                     | string | set once the sweep zsets also cover keys written before    |
 * |                                   |        | they existed (built once, see sweep.ts)              |
 * | P sweep:build                     | string | lock of that one-time build (holder's origin; PX)          |
 * | P admin:email:<lowercased email>  | string | administrator JSON                                         |
 * | P admin:ids                       | set    | administrator ids                                          |
 * | P admin:session:<token sha256>    | hash   | an admin session (AdminSession fields); TTL = its idle end |
 * | P admin:login-failures:<subject>  | string | failed logins in the window; TTL = the window's end        |
 * | P alerts:…                        |        | the alert outbox, in the admin group (table in alerts.ts)  |
 * | P ratelimit:<quota>:<keyId>       | string | calls in the key's rate-limit window; TTL = the window's end |
 * | P idempotency:<keyId>:<key hash>  | string | an Idempotency-Key record (JSON); TTL = its 24 h retention  |
 * | P idempotency:<keyId>:<key hash>:target | string | (Cluster) the name in another slot group under which   |
 * |                                   |        | a change's script committed this record (settle.ts)         |
 * | P alerts-inbox                    | hash   | event id → alert event JSON parked by a key commit, until   |
 * |                                   |        | relayed to the outbox (relayAlerts)                         |
 * | P plan:<id>                       | hash   | data (plan JSON without version), version                  |
 * | P plans:all                       | zset (lex) | `<createdAt> <id>` of plans                            |
 * | P plan:<planId>:keys              | set    | ids of the keys naming the plan (in each key's group)      |
 * | P plan:<planId>:identities        | set    | ids of the identities naming it (in each identity's group) |
 * | P identity:<id>                   | hash   | data (identity JSON without version), version,             |
 * |                                   |        | environment, externalId                                    |
 * | P identity:<id>:keys              | set    | ids of the identity's keys (in each key's group)           |
 * | P identities:external             | hash   | `<environment> <externalId>` → identity id (unique)        |
 * | P identities:all, :env:<e>        | zset (lex) | `<createdAt> <id>` of identities                       |
 * | P budget:<subject id>             | hash   | credits (remaining), refilledAt (ms): a key's or identity's |
 * |                                   |        | credit balance, in the subject's group; and per plan line   |
 * |                                   |        | `l:<name>` / `q:<period>` → `<window start ms>:<count>`    |
 * |                                   |        | (in the group of the policy's identity, else its key)      |
 * | P budget:<subject>:<line>:<start> | string | former per-window line count, read once when the line's    |
 * |                                   |        | field is missing (an upgrade); expires after its window    |
 * | P budget:<subject>:op:<id>        | string | `<remaining>:<refilledAt>:<until>`: what a credits        |
 * |                                   |        | operation left, by its request's id (redis-ledger.ts);     |
 * |                                   |        | expires at `until`, a record's 24 h after the operation    |
 * | P budget-usage:<subject>:<day>    | hash   | billing usage: `<outcome>` calls, `<outcome>:cost`          |
 * | P budget-usage:day:<day>          | set    | subjects with billing usage that day (per slot group)       |
 * | P budget-usage:flush:<id>         | string | marker of a billing usage flush already applied (7 days)    |
 * | P calls:<g>:<subject>:<span>      | hash   | analytics buckets of granularity g (m, h, d) in one span    |
 * |                                   |        | (an hour of minutes, a day of hours, 10 days of days):      |
 * |                                   |        | `<offset>|<env>|<outcome>` calls, `…|c` cost; expires with  |
 * |                                   |        | its granularity's retention                                 |
 * | P calls:flush:<id>                | string | marker of an analytics flush already applied (7 days)       |
 * | P invalidate                      | channel| `<kind> <origin> <keyId>` (see encodeInvalidation),        |
 * |                                   |        | `secrets <origin> <keyId> <lookup>,…` (encodeSecretLookups) |
 * |                                   |        | and `plan|identity <origin> <id>` (encodeBudgetInvalidation) |
 *
 * Usage buckets and their index expire USAGE_RETENTION_SECONDS after their last write, and the
 * index is trimmed to the retention window before the newest minute written.
 *
 * On a Redis Cluster (see createKeyLayout) the same table holds once per slot group: P becomes
 * `<prefix>{g<nn>}:` for every name of a key's state and of the indexes that list it, and
 * `<prefix>{admin}:` for the admin names and for activity about no key (a sandbox reset); the channel
 * stays `<prefix>invalidate`. Plans, the external-id index and the identity lists live in the admin
 * group (`plans`); an identity's hash and credit balance in its own id's group, like a key's.
 */
export type RedisKeyNames = ReturnType<typeof createKeyNames>;

/**
 * How many slot groups a Cluster layout has. Each group is one hash tag, so one hash slot: a key's
 * state and the indexes that list it (key lists, activity, lookups, sweep, usage and log indexes)
 * share it, and every script stays atomic in one slot. 64 spreads keys over any realistic number
 * of masters while a list over every key asks 64 slots (one round trip per master). Part of the
 * data layout: changing it moves every key.
 */
export const CLUSTER_SLOT_GROUPS = 64;

/** Where each name lives: one set of names (standalone, Sentinel) or one per slot group (Cluster). */
export interface RedisKeyLayout {
  /** The names without a group: the invalidation channel; on standalone, every name. */
  root: RedisKeyNames;
  /** Administrators, admin sessions and login throttles: single-key commands except admin creation. */
  admin: RedisKeyNames;
  /** Every group's names, in group order (one entry, `root`, outside a Cluster). */
  groups: readonly RedisKeyNames[];
  /**
   * Where activity about no key (`keyId` null, a sandbox reset) lives: the admin group, so its
   * entry and indexes share a slot. Activity lists over more than one key read it too.
   */
  keyless: RedisKeyNames;
  /** The groups an activity list over every key (or an environment) merges: `groups`, plus `keyless` on a Cluster. */
  activityGroups: readonly RedisKeyNames[];
  /** Plans, the identities' external-id index and their lists: one group (the admin one on a Cluster). */
  plans: RedisKeyNames;
  /** The names of the group holding this key's (or identity's: any id's) state. */
  forKey(keyId: string): RedisKeyNames;
}

/** The slot group of a key id (FNV-1a, so it is stable across processes and versions). */
export function slotGroupOf(keyId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < keyId.length; i++) {
    hash ^= keyId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % CLUSTER_SLOT_GROUPS;
}

/**
 * The layout under `prefix`. Outside a Cluster every name is exactly as in the table above (so a
 * standalone or Sentinel deployment keeps its data across this change); on a Cluster, names carry
 * the hash tag of their slot group.
 */
export function createKeyLayout(prefix: string, clustered: boolean): RedisKeyLayout {
  const root = createKeyNames(prefix);
  if (!clustered) {
    return {
      root,
      admin: root,
      groups: [root],
      keyless: root,
      activityGroups: [root],
      plans: root,
      forKey: () => root,
    };
  }
  const tagged = (tag: string) => ({ ...createKeyNames(`${prefix}{${tag}}:`), channel: root.channel });
  const groups = Array.from({ length: CLUSTER_SLOT_GROUPS }, (_, g) =>
    tagged(`g${String(g).padStart(2, '0')}`),
  );
  const admin = tagged('admin');
  return {
    root,
    admin,
    groups,
    keyless: admin,
    activityGroups: [...groups, admin],
    plans: admin,
    forKey: (keyId) => groups[slotGroupOf(keyId)]!,
  };
}

/** How long usage buckets live after their last write: 90 days. */
export const USAGE_RETENTION_SECONDS = 90 * 24 * 60 * 60;

const ENVIRONMENTS: Record<Environment, true> = { live: true, test: true };
const STATUSES: Record<KeyStatus, true> = { active: true, revoked: true };

/** Builds every key and channel name under `prefix`. */
export function createKeyNames(prefix: string) {
  const environments = Object.keys(ENVIRONMENTS) as Environment[];
  const statuses = Object.keys(STATUSES) as KeyStatus[];
  const names = {
    keyPrefix: `${prefix}key:`,
    key: (id: string) => `${prefix}key:${id}`,
    keySecrets: (id: string) => `${prefix}key:${id}:secrets`,
    secretPrefix: `${prefix}secret:`,
    secret: (id: string) => `${prefix}secret:${id}`,
    lookups: `${prefix}lookups`,
    keysAll: `${prefix}keys:all`,
    keysByEnv: (env: Environment) => `${prefix}keys:env:${env}`,
    keysByStatus: (status: KeyStatus) => `${prefix}keys:status:${status}`,
    keysByEnvStatus: (env: Environment, status: KeyStatus) => `${prefix}keys:env:${env}:status:${status}`,
    activity: `${prefix}activity`,
    activityAll: `${prefix}activity:all`,
    activityByKey: (keyId: string) => `${prefix}activity:key:${keyId}`,
    activityByEnv: (env: Environment) => `${prefix}activity:env:${env}`,
    /** The common start of a key's bucket names (the prune script appends `<secretId>:<minute>`). */
    usageOfKey: (keyId: string) => `${prefix}usage:${keyId}:`,
    usage: (keyId: string, secretId: string, minute: number) =>
      `${prefix}usage:${keyId}:${secretId}:${minute}`,
    usageIndex: (keyId: string) => `${prefix}usage:index:${keyId}`,
    usageKeys: `${prefix}usage:keys`,
    usageFlush: (flushId: string) => `${prefix}usage:flush:${flushId}`,
    logs: (keyId: string) => `${prefix}logs:${keyId}`,
    logLines: (keyId: string) => `${prefix}logs:${keyId}:lines`,
    logKeys: `${prefix}logs:keys`,
    sweepClosing: `${prefix}sweep:closing`,
    sweepExpiry: `${prefix}sweep:expiry`,
    sweepReady: `${prefix}sweep:ready`,
    sweepBuild: `${prefix}sweep:build`,
    adminByEmail: (normalizedEmail: string) => `${prefix}admin:email:${normalizedEmail}`,
    adminIds: `${prefix}admin:ids`,
    /** The start of every alert outbox name (store/redis/alerts.ts); used from the admin group. */
    alertsPrefix: `${prefix}alerts:`,
    adminSession: (tokenHash: string) => `${prefix}admin:session:${tokenHash}`,
    loginFailures: (subject: string) => `${prefix}admin:login-failures:${subject}`,
    /** A key's rate-limit counter for its quota (calls per window), as rate-limiter-flexible names it. */
    rateLimit: (quota: number, keyId: string) => `${prefix}ratelimit:${quota}:${keyId}`,
    /**
     * A key's or identity's budget: its credit balance (fields `credits`, `refilledAt`) and its plan
     * lines' counts (a field per line, see BUDGET_BATCH), in its budget's slot group.
     */
    budget: (subject: string) => `${prefix}budget:${subject}`,
    /** What a credits operation left, by its request's id, beside the balance (redis-ledger.ts). */
    budgetOperation: (subject: string, operationId: string) => `${prefix}budget:${subject}:op:${operationId}`,
    /** Billing usage of a key or identity on one day: `<outcome>` calls and `<outcome>:cost`. */
    budgetUsage: (subject: string, day: string) => `${prefix}budget-usage:${subject}:${day}`,
    /** The subjects of this slot group with billing usage on a day. */
    budgetUsageDay: (day: string) => `${prefix}budget-usage:day:${day}`,
    /** Marker of a billing usage flush already applied to this slot group. */
    budgetUsageFlush: (flushId: string) => `${prefix}budget-usage:flush:${flushId}`,
    /** Analytics buckets of a key or identity: one hash per granularity (m, h, d) and span start (ms). */
    callBuckets: (granularity: string, subject: string, spanStart: number) =>
      `${prefix}calls:${granularity}:${subject}:${spanStart}`,
    /** Marker of an analytics flush already applied to this slot group. */
    callBucketsFlush: (flushId: string) => `${prefix}calls:flush:${flushId}`,
    /** An Idempotency-Key record of a key, in the key's slot group. */
    idempotency: (keyId: string, keyHash: string) => `${prefix}idempotency:${keyId}:${keyHash}`,
    /** Where the record of (keyId, keyHash) was committed with a change in another slot group. */
    idempotencyTarget: (keyId: string, keyHash: string) => `${prefix}idempotency:${keyId}:${keyHash}:target`,
    /** Alert events of key commits in this group, waiting to be relayed to the outbox. */
    alertInbox: `${prefix}alerts-inbox`,
    plan: (id: string) => `${prefix}plan:${id}`,
    plansAll: `${prefix}plans:all`,
    planKeys: (planId: string) => `${prefix}plan:${planId}:keys`,
    planIdentities: (planId: string) => `${prefix}plan:${planId}:identities`,
    identity: (id: string) => `${prefix}identity:${id}`,
    identityKeys: (identityId: string) => `${prefix}identity:${identityId}:keys`,
    identitiesByExternalId: `${prefix}identities:external`,
    identitiesAll: `${prefix}identities:all`,
    identitiesByEnv: (env: Environment) => `${prefix}identities:env:${env}`,
    channel: `${prefix}invalidate`,
  };
  /** Every filtered key index (all but `keys:all`): a commit removes the key from each, then adds it back where it belongs. */
  const filteredKeyIndexes = [
    ...environments.map(names.keysByEnv),
    ...statuses.map(names.keysByStatus),
    ...environments.flatMap((env) => statuses.map((status) => names.keysByEnvStatus(env, status))),
  ];
  return { ...names, filteredKeyIndexes };
}

/** The index of the key list matching a filter. */
export function keyIndexFor(
  names: RedisKeyNames,
  filter: { environment?: Environment; status?: KeyStatus },
): string {
  const { environment, status } = filter;
  if (environment && status) return names.keysByEnvStatus(environment, status);
  if (environment) return names.keysByEnv(environment);
  if (status) return names.keysByStatus(status);
  return names.keysAll;
}

/** A lex index member ordering by (at, id). */
export function lexMember(at: string, id: string): string {
  return `${at} ${id}`;
}

/** An ISO instant as the epoch-ms score of a zset; throws on anything unparseable. */
export function timeScore(iso: string): number {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new Error(`not an ISO instant: ${iso}`);
  return ms;
}

/**
 * One message on the invalidation channel: `commit` comes from the commit script itself (so a
 * change is announced atomically with its write), `event` from `KeyEvents.publish`. `origin`
 * names the store or events object that sent it, so each can ignore its own echo.
 */
export interface Invalidation {
  kind: 'commit' | 'event';
  origin: string;
  keyId: string;
}

/** A random origin id for one store or events object. */
export function createOrigin(): string {
  return randomBytes(9).toString('base64url');
}

/** Invalidation → channel message. */
export function encodeInvalidation(message: Invalidation): string {
  return `${message.kind} ${message.origin} ${message.keyId}`;
}

/** Channel message → invalidation, or null for anything else. */
export function decodeInvalidation(message: string): Invalidation | null {
  const first = message.indexOf(' ');
  const second = message.indexOf(' ', first + 1);
  if (first < 0 || second < 0) return null;
  const kind = message.slice(0, first);
  if (kind !== 'commit' && kind !== 'event') return null;
  const keyId = message.slice(second + 1);
  return keyId ? { kind, origin: message.slice(first + 1, second), keyId } : null;
}

/** A plan or identity change on the channel: `plan <origin> <id>` / `identity <origin> <id>`. */
export interface BudgetInvalidation {
  kind: 'plan' | 'identity';
  origin: string;
  id: string;
}

/**
 * BudgetInvalidation → channel message. Kinds of their own, so `decodeInvalidation` (and an
 * instance that knows only keys, during a rolling upgrade) ignores them.
 */
export function encodeBudgetInvalidation(message: BudgetInvalidation): string {
  return `${message.kind} ${message.origin} ${message.id}`;
}

/** Channel message → plan or identity change, or null for anything else. */
export function decodeBudgetInvalidation(message: string): BudgetInvalidation | null {
  const parts = message.split(' ');
  if (parts.length !== 3 || !parts[1] || !parts[2]) return null;
  const kind = parts[0];
  if (kind !== 'plan' && kind !== 'identity') return null;
  return { kind, origin: parts[1], id: parts[2] };
}

/**
 * The second message of a commit that wrote secrets: `secrets <origin> <keyId> <lookup>,…`, the
 * token lookups of the secrets it created or touched, so every instance forgets the refusals it
 * remembered for them. A kind of its own, so an instance that knows only `commit` and `event`
 * ignores it (decodeInvalidation returns null) during a rolling upgrade.
 */
export function encodeSecretLookups(origin: string, keyId: string, lookups: readonly string[]): string {
  return `secrets ${origin} ${keyId} ${lookups.join(',')}`;
}

/** A `secrets` channel message → its key id and lookups, or null for anything else. */
export function decodeSecretLookups(message: string): { keyId: string; lookups: string[] } | null {
  if (!message.startsWith('secrets ')) return null;
  const parts = message.split(' ');
  if (parts.length !== 4 || !parts[2] || !parts[3]) return null;
  return { keyId: parts[2], lookups: parts[3].split(',') };
}

/** The Redis Cluster hash slot of a key name: CRC16 (XMODEM) of its hash tag, or of the whole name. */
export function hashSlotOf(name: string): number {
  const bytes = Buffer.from(name);
  let start = 0;
  let end = bytes.length;
  const open = bytes.indexOf(0x7b);
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) {
      start = open + 1;
      end = close;
    }
  }
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc ^= bytes[i]! << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}
