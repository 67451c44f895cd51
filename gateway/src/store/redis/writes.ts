import { ReplyError } from 'ioredis';
import { GatewayError } from '../../errors.ts';
import type { ActivityEntry, AdminUser, ApiLogEntry, KeyChange, UsageBucket } from '../../model/model.ts';
import {
  closingScore,
  encodeHistogram,
  encodeKeyData,
  encodeSecretClosing,
  encodeSecretData,
  expiryScore,
} from './codec.ts';
import type { RedisClient } from './connection.ts';
import {
  encodeInvalidation,
  encodeSecretLookups,
  lexMember,
  type RedisKeyLayout,
  type RedisKeyNames,
  timeScore,
  USAGE_RETENTION_SECONDS,
} from './keys.ts';
import type { RedisScripts } from './scripts.ts';
import { settleParts, withSettle } from './settle.ts';

/** What the Redis store's reads and writes share. */
export interface RedisStoreContext {
  client: RedisClient;
  /** The names of the part of the layout at hand (the root names unless narrowed to one slot group). */
  names: RedisKeyNames;
  /** Which slot group holds what (one group outside a Cluster). */
  layout: RedisKeyLayout;
  scripts: RedisScripts;
  /** This store's id on the invalidation channel. */
  origin: string;
  /** How long a commit whose answer was lost (timeout, dropped connection) is re-checked; default 3000 ms. */
  settleTimeoutMs?: number;
}

/** Buckets (and log lines) per script call: bounds how long one call blocks the server. */
const BATCH = 200;
const PRUNE_BATCH = 1000;

/**
 * Arguments of the commit script (`numkeys, ...KEYS, ...ARGV`).
 * KEYS: 1 key hash, 2 lookups, 3 activity hash, 4 activity:all, 5 activity:key:<activity.keyId>,
 * 6 activity:env:<activity.environment>, 7 the activity's key hash, 8 keys:all, 9–11 the key's
 * env, status and env+status indexes, then every filtered key index, then per secret: its hash,
 * its key's hash and its key's secrets zset, then sweep:closing and sweep:expiry (last two).
 * ARGV: 1 channel, 2 messages (one per line, each published), 3 key id, 4 expected version ('' = create), 5 new version, 6 key
 * JSON, 7 environment, 8 status, 9 createdAt score, 10 activity id, 11 activity member,
 * 12 activity JSON, 13 number of filtered indexes, 14 number of secrets, then per secret: id,
 * keyId, lookup, createdAt score, data JSON, closing JSON, sweep:closing score ('' = remove);
 * then the key's sweep:expiry score ('' = remove), and a created key's starting credit balance and
 * its refill time in ms ('' and '' = none), written to `budget:<keyId>` in the key's group, and
 * '1' outside a Cluster: refuse (0) a plan or identity newly named that does not exist; then the
 * idempotency record's expected text ('-' = the change carries none; '' = there must be none) and
 * next text and its TTL in ms (settle.ts), then the number of alert events and per event its id and JSON.
 * KEYS end with the idempotency record's name and the group's alert inbox (after the sweep zsets).
 * The script also moves the key between the `plan:<id>:keys` and `identity:<id>:keys` sets of its
 * group, from the plan and identity of the stored JSON to those of the new one.
 */
export function commitArgs(ctx: RedisStoreContext, change: KeyChange): (string | number)[] {
  const { key, activity, secrets } = change;
  // Everything a change touches sits in its key's slot group, so the script stays in one slot.
  const names = ctx.layout.forKey(key.id);
  const settle = settleParts(ctx, change.idempotency, names, names.key(key.id));
  const alerts = change.alerts ?? [];
  const keys = [
    names.key(key.id),
    names.lookups,
    names.activity,
    names.activityAll,
    names.activityByKey(key.id),
    names.activityByEnv(activity.environment),
    names.key(key.id),
    names.keysAll,
    names.keysByEnv(key.environment),
    names.keysByStatus(key.status),
    names.keysByEnvStatus(key.environment, key.status),
    ...names.filteredKeyIndexes,
    ...secrets.flatMap((s) => [names.secret(s.id), names.key(s.keyId), names.keySecrets(s.keyId)]),
    names.sweepClosing,
    names.sweepExpiry,
    settle.name,
    names.alertInbox,
  ];
  // Published by the script itself, so a change is announced atomically with its write: the commit,
  // then the lookups of the secrets it wrote (a key created or rotated from any process, the CLI
  // too, is let in at once by instances that refused its lookup before).
  const commit = encodeInvalidation({ kind: 'commit', origin: ctx.origin, keyId: key.id });
  const lookups = secrets.map((secret) => secret.lookup);
  const message =
    lookups.length === 0 ? commit : `${commit}\n${encodeSecretLookups(ctx.origin, key.id, lookups)}`;
  const args = [
    names.channel,
    message,
    key.id,
    change.expectedVersion === null ? '' : String(change.expectedVersion),
    String(key.version),
    encodeKeyData(key),
    key.environment,
    key.status,
    timeScore(key.createdAt),
    activity.id,
    lexMember(activity.at, activity.id),
    JSON.stringify(activity),
    names.filteredKeyIndexes.length,
    secrets.length,
    ...secrets.flatMap((s) => [
      s.id,
      s.keyId,
      s.lookup,
      timeScore(s.createdAt),
      encodeSecretData(s),
      encodeSecretClosing(s),
      closingScore(s) ?? '',
    ]),
    expiryScore(key) ?? '',
    change.creditsBalance?.remaining ?? '',
    change.creditsBalance?.refilledAt ?? '',
    ctx.layout.groups.length === 1 ? '1' : '',
    ...settle.args,
    alerts.length,
    ...alerts.flatMap((event) => [event.id, JSON.stringify(event)]),
  ];
  return [keys.length, ...keys, ...args];
}

/**
 * Applies a key change in one script; false on a version conflict. When the answer is lost
 * (command timeout, dropped connection) the script may still have run: the outcome is settled by
 * reading back the change's activity entry (written by the same script). Applied → true; shown not
 * applied → the original error; still unknown after `settleTimeoutMs` → 503 OUTCOME_UNKNOWN.
 */
export async function commitKeyChange(ctx: RedisStoreContext, change: KeyChange): Promise<boolean> {
  try {
    const names = ctx.layout.forKey(change.key.id);
    return await withSettle(
      ctx,
      change.idempotency,
      names,
      async () => (await ctx.scripts.commitChange(...commitArgs(ctx, change))) === 1,
    );
  } catch (error) {
    if (!isInDoubt(error)) throw error;
    const applied = await settleCommit(ctx, change.key.id, change.activity.id);
    if (applied === true) return true;
    if (applied === false) throw error;
    throw Object.assign(
      new GatewayError(
        'OUTCOME_UNKNOWN',
        'The key store stopped answering while applying the change; it may or may not have been applied. Read the key again before retrying.',
      ),
      { cause: error },
    );
  }
}

/** A reply (the script ran and refused) or a command never sent is certain; anything else may have run. */
function isInDoubt(error: unknown): boolean {
  if (error instanceof ReplyError) return false;
  return !/enableOfflineQueue|redis circuit open/i.test(String((error as Error)?.message));
}

/** Whether the activity entry of a commit exists: true/false once Redis answers, null if it does not in time. */
async function settleCommit(
  ctx: RedisStoreContext,
  keyId: string,
  activityId: string,
): Promise<boolean | null> {
  const deadline = Date.now() + (ctx.settleTimeoutMs ?? 3000);
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    try {
      return (await ctx.client.hexists(ctx.layout.forKey(keyId).activity, activityId)) === 1;
    } catch {
      const wait = Math.min(100 * 2 ** attempt, deadline - Date.now());
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return null;
}

/** How long a usage chunk's flush marker is kept: a retry later than this could count it twice. */
export const USAGE_FLUSH_MARKER_SECONDS = 7 * 24 * 60 * 60;

/**
 * KEYS: usage:keys, the chunk's flush marker (usage:keys again when there is none), then per
 * bucket: bucket hash, usage index, secret hash, key hash. ARGV: TTL seconds, marker TTL seconds, then per bucket: index member, minute, trim bound (minute − retention), calls,
 * errors4xx, errors5xx, latencyMsSum, histogram CSV, lastCallAt, keyId.
 */
function usageArgs(names: RedisKeyNames, buckets: UsageBucket[], chunkId?: string): (string | number)[] {
  const keys = [
    names.usageKeys,
    chunkId === undefined ? names.usageKeys : names.usageFlush(chunkId),
    ...buckets.flatMap((b) => [
      names.usage(b.keyId, b.secretId, b.minute),
      names.usageIndex(b.keyId),
      names.secret(b.secretId),
      names.key(b.keyId),
    ]),
  ];
  const args = buckets.flatMap((b) => [
    `${b.minute}:${b.secretId}`,
    b.minute,
    b.minute - USAGE_RETENTION_SECONDS * 1000,
    b.calls,
    b.errors4xx,
    b.errors5xx,
    String(b.latencyMsSum),
    encodeHistogram(b.latencyHistogram),
    b.lastCallAt,
    b.keyId,
  ]);
  return [keys.length, ...keys, USAGE_RETENTION_SECONDS, USAGE_FLUSH_MARKER_SECONDS, ...args];
}

/**
 * Sums buckets in script calls of up to BATCH buckets each. With a `flushId` each chunk is
 * marked `<flushId>:<n>` atomically with its increments, so retrying the same buckets with the
 * same id skips the chunks that already landed.
 */
export async function recordUsageBuckets(
  ctx: RedisStoreContext,
  buckets: UsageBucket[],
  flushId?: string,
): Promise<void> {
  // One script call per slot group (and BATCH buckets); a group's chunks are named after the group,
  // so a retry of the same buckets names the same chunks.
  for (const [group, part] of byGroup(ctx, buckets)) {
    const names = ctx.layout.groups[group]!;
    const tag = ctx.layout.groups.length === 1 ? '' : `${group}:`;
    for (let i = 0; i < part.length; i += BATCH) {
      const chunkId = flushId === undefined ? undefined : `${flushId}:${tag}${i / BATCH}`;
      await ctx.scripts.recordUsage(...usageArgs(names, part.slice(i, i + BATCH), chunkId));
    }
  }
}

/** Items by the slot group of their key, groups in order. */
function byGroup<T extends { keyId: string }>(ctx: RedisStoreContext, items: T[]): [number, T[]][] {
  const { groups } = ctx.layout;
  const parts = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.indexOf(ctx.layout.forKey(item.keyId));
    const part = parts.get(group);
    if (part) part.push(item);
    else parts.set(group, [item]);
  }
  return [...parts.entries()].sort(([a], [b]) => a - b);
}

/** Appends log lines (ignoring ids already stored) in script calls of up to BATCH lines. */
export async function appendLogLines(ctx: RedisStoreContext, entries: ApiLogEntry[]): Promise<void> {
  for (const [group, part] of byGroup(ctx, entries)) {
    const names = ctx.layout.groups[group]!;
    for (let i = 0; i < part.length; i += BATCH) {
      const batch = part.slice(i, i + BATCH);
      const keys = [names.logKeys, ...batch.flatMap((e) => [names.logs(e.keyId), names.logLines(e.keyId)])];
      const args = batch.flatMap((e) => [e.keyId, e.id, lexMember(e.at, e.id), JSON.stringify(e)]);
      await ctx.scripts.appendLogs(keys.length, ...keys, ...args);
    }
  }
}

/** Runs `work` once per slot group and sums the counts. */
async function sumOverGroups(
  ctx: RedisStoreContext,
  work: (names: RedisKeyNames) => Promise<number>,
): Promise<number> {
  const counts = await Promise.all(ctx.layout.groups.map(work));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** Removes log lines older than `before` from every key that has some; returns how many went. */
export async function pruneLogLines(ctx: RedisStoreContext, before: string): Promise<number> {
  return sumOverGroups(ctx, (names) => pruneLogLinesIn(ctx, names, before));
}

async function pruneLogLinesIn(
  ctx: RedisStoreContext,
  names: RedisKeyNames,
  before: string,
): Promise<number> {
  const keyIds = await ctx.client.smembers(names.logKeys);
  const pruneKey = async (keyId: string) => {
    let total = 0;
    for (;;) {
      const removed = Number(
        await ctx.scripts.pruneLogs(
          3,
          names.logs(keyId),
          names.logLines(keyId),
          names.logKeys,
          `(${before}`,
          keyId,
          PRUNE_BATCH,
        ),
      );
      total += removed;
      if (removed < PRUNE_BATCH) return total;
    }
  };
  const counts = await Promise.all(keyIds.map(pruneKey));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** Deletes usage buckets of every key whose minute is before `beforeMs`; returns how many went. */
export async function pruneUsageBuckets(ctx: RedisStoreContext, beforeMs: number): Promise<number> {
  return sumOverGroups(ctx, (names) => pruneUsageBucketsIn(ctx, names, beforeMs));
}

async function pruneUsageBucketsIn(
  ctx: RedisStoreContext,
  names: RedisKeyNames,
  beforeMs: number,
): Promise<number> {
  const keyIds = await ctx.client.smembers(names.usageKeys);
  const pruneKey = async (keyId: string) => {
    let total = 0;
    for (;;) {
      const [scanned, deleted] = (await ctx.scripts.pruneUsage(
        2,
        names.usageIndex(keyId),
        names.usageKeys,
        `(${beforeMs}`,
        keyId,
        names.usageOfKey(keyId),
        PRUNE_BATCH,
      )) as [number, number];
      total += deleted;
      if (scanned < PRUNE_BATCH) return total;
    }
  };
  const counts = await Promise.all(keyIds.map(pruneKey));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** Emails compare case-insensitively (trimmed, lower-cased), as in the SQLite store. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Creates an administrator unless the email (any case) or the id is taken. */
export async function createAdminUser(ctx: RedisStoreContext, user: AdminUser): Promise<boolean> {
  const names = ctx.layout.admin;
  const created = await ctx.scripts.createAdmin(
    2,
    names.adminByEmail(normalizeEmail(user.email)),
    names.adminIds,
    user.id,
    JSON.stringify(user),
  );
  return created === 1;
}

/**
 * Appends an activity entry about no key: the entry and the global and environment indexes, in one
 * transaction, in the keyless group (one slot on a Cluster).
 */
export async function appendKeylessActivity(ctx: RedisStoreContext, entry: ActivityEntry): Promise<void> {
  const names = ctx.layout.keyless;
  const member = lexMember(entry.at, entry.id);
  await ctx.client
    .multi()
    .hset(names.activity, entry.id, JSON.stringify(entry))
    .zadd(names.activityAll, 0, member)
    .zadd(names.activityByEnv(entry.environment), 0, member)
    .exec();
}
