import type { Cluster } from 'ioredis';
import { type BucketRetention, DEFAULT_BUCKET_RETENTION } from '../../budget/call-buckets.ts';
import type { BudgetLedger } from '../../budget/ledger.ts';
import type { BudgetUsageStore } from '../../budget/usage-meter.ts';
import type { AlertStore } from '../../model/alert-store.ts';
import type { AdminUser } from '../../model/model.ts';
import type { KeyStore } from '../store.ts';
import { createRedisAdminSessions } from './admin.ts';
import { relayAlertInboxes } from './alert-inbox.ts';
import { createRedisAlertStore } from './alerts.ts';
import { createBudgetBatch } from './budget-batch.ts';
import { createRedisBudgetConfig } from './budget-config.ts';
import { createRedisBudgetUsage } from './budget-usage.ts';
import { type CounterReading, createRedisCallBatch } from './call-batch.ts';
import {
  closeRedis,
  connectRedis,
  createRedisClient,
  DEFAULT_KEY_PREFIX,
  type RedisClient,
  type RedisConnectionOptions,
} from './connection.ts';
import { createRedisIdempotency } from './idempotency.ts';
import { createKeyLayout, createOrigin, decodeInvalidation, hashSlotOf } from './keys.ts';
import {
  readActivityPage,
  readByLookup,
  readKey,
  readKeys,
  readLogPage,
  readSecrets,
  readUsage,
} from './reads.ts';
import { createRedisLedger } from './redis-ledger.ts';
import { defineScripts } from './scripts.ts';
import { openInvalidationSubscriber } from './subscriber.ts';
import { readSweepCandidates } from './sweep.ts';
import { isClusterTarget, type RedisTarget } from './target.ts';
import {
  appendKeylessActivity,
  appendLogLines,
  commitKeyChange,
  createAdminUser,
  normalizeEmail,
  pruneLogLines,
  pruneUsageBuckets,
  type RedisStoreContext,
  recordUsageBuckets,
} from './writes.ts';

export interface RedisKeyStoreOptions extends RedisConnectionOptions {
  /** Prefix of every key and of the invalidation channel; default `keygate:`. */
  keyPrefix?: string;
  /** How long a commit whose answer was lost is re-checked before answering OUTCOME_UNKNOWN; default 3000 ms. */
  settleTimeoutMs?: number;
  /** How long analytics buckets are kept (their hashes expire then); default DEFAULT_BUCKET_RETENTION. */
  bucketRetention?: BucketRetention;
}

/** The Redis key store: a KeyStore that always has `readKeyVersion`, plus its command connection. */
export type RedisKeyStore = KeyStore & {
  /** The key's version; sent with every other version read and call count of the event-loop turn. */
  readKeyVersion(keyId: string): Promise<number | null>;
  /**
   * Counts one call on the key's rate-limit counter for `quota` (fixed window of `windowSeconds`,
   * shared by every instance); sent like `readKeyVersion`. Rejects at once while Redis is away.
   */
  countKeyCall(keyId: string, quota: number, windowSeconds: number): Promise<CounterReading>;
  /** The command connection (fail-fast options), e.g. for the Redis rate limiter. Closed by `close()`. */
  client: RedisClient;
  /** Plans, quotas and credits shared by every instance: one script call per subject's slot group. */
  ledger: BudgetLedger;
  /** Usage by day and outcome for billing. */
  budgetUsage: BudgetUsageStore;
  /** The alert outbox and its endpoints, in the admin slot group. */
  alerts: AlertStore;
};

/**
 * Opens the Redis key store at `url`: one command connection (auto-pipelined, no offline queue,
 * command timeout) and one subscriber connection on `<prefix>invalidate`. Rejects if Redis does
 * not answer within `connectTimeoutMs`. While Redis is down every method rejects promptly (ping
 * answers false) and the connections recover by themselves when it returns.
 *
 * `changeMarker()` is a local counter (never a round trip): it moves when the subscriber sees a
 * commit made by another store object (another process or connection) and whenever the subscriber
 * has reconnected (messages may have been lost meanwhile). Commits publish on the channel from
 * inside the commit script, atomically with the write.
 */
export async function openRedisKeyStore(
  url: RedisTarget,
  options: RedisKeyStoreOptions = {},
): Promise<RedisKeyStore> {
  const clustered = isClusterTarget(url);
  const layout = createKeyLayout(options.keyPrefix ?? DEFAULT_KEY_PREFIX, clustered);
  const names = layout.root;
  const origin = createOrigin();
  const client = createRedisClient(url, 'store', options);
  const scripts = defineScripts(client);
  await connectRedis(client, options.connectTimeoutMs);
  let marker = 0;
  // A master that failed over may have lost changes it had announced: flush as after a reconnect.
  if (clustered) onClusterFailover(client as Cluster, () => marker++);
  let subscriber: Awaited<ReturnType<typeof openInvalidationSubscriber>>;
  try {
    subscriber = await openInvalidationSubscriber(url, {
      ...options,
      role: 'store-subscriber',
      channel: names.channel,
      onMessage(message) {
        const invalidation = decodeInvalidation(message);
        if (invalidation?.kind === 'commit' && invalidation.origin !== origin) marker++;
      },
      onResubscribed() {
        marker++;
      },
    });
  } catch (error) {
    await closeRedis(client);
    throw error;
  }
  const ctx: RedisStoreContext = {
    client,
    names,
    layout,
    scripts,
    origin,
    settleTimeoutMs: options.settleTimeoutMs,
  };
  const alerts = createRedisAlertStore(client, layout.admin.alertsPrefix);
  const calls = clustered
    ? createRedisCallBatch(client, scripts.callBatchCrossSlot, (name) => masterOf(client as Cluster, name))
    : createRedisCallBatch(client, scripts.callBatch);
  const budgetBatch = clustered
    ? createBudgetBatch(client, scripts.budgetBatchCrossSlot, (name) => masterOf(client as Cluster, name))
    : createBudgetBatch(client, scripts.budgetBatch);
  return {
    client,
    ledger: createRedisLedger(layout, budgetBatch, scripts.changeCredits),
    budgetUsage: createRedisBudgetUsage(
      client,
      layout,
      scripts.budgetUsage,
      scripts.callBuckets,
      options.bucketRetention ?? DEFAULT_BUCKET_RETENTION,
    ),
    alerts,
    commitChange: (change) => commitKeyChange(ctx, change),
    relayAlerts: (keyId) => relayAlertInboxes(ctx, alerts, keyId),
    getKey: (id) => readKey(ctx, id),
    listKeys: (filter = {}) => readKeys(ctx, filter),
    listSecrets: (keyId) => readSecrets(ctx, keyId),
    listSweepCandidates: (nowMs, reminderLeadDays) => readSweepCandidates(ctx, nowMs, reminderLeadDays),
    findByLookup: (lookup) => readByLookup(ctx, lookup),
    async setSecretTag(secret, tag) {
      await ctx.scripts.setSecretTag(1, layout.forKey(secret.keyId).secret(secret.id), tag);
    },
    listActivity: (filter) => readActivityPage(ctx, filter),
    recordUsage: (buckets, flushId) => recordUsageBuckets(ctx, buckets, flushId),
    queryUsage: (query) => readUsage(ctx, query),
    pruneUsage: (beforeMs) => pruneUsageBuckets(ctx, beforeMs),
    appendActivity: (entry) => appendKeylessActivity(ctx, entry),
    appendLogs: (entries) => appendLogLines(ctx, entries),
    queryLogs: (filter) => readLogPage(ctx, filter),
    pruneLogs: (before) => pruneLogLines(ctx, before),
    createAdmin: (user) => createAdminUser(ctx, user),
    async findAdminByEmail(email) {
      const json = await client.get(layout.admin.adminByEmail(normalizeEmail(email)));
      return json ? (JSON.parse(json) as AdminUser) : null;
    },
    ...createRedisAdminSessions(ctx),
    ...createRedisIdempotency(ctx),
    ...createRedisBudgetConfig(ctx),
    readKeyVersion: (keyId) => calls.readVersion(layout.forKey(keyId).key(keyId)),
    countKeyCall: (keyId, quota, windowSeconds) =>
      calls.countCall(layout.forKey(keyId).rateLimit(quota, keyId), windowSeconds),
    changeMarker: () => marker,
    async ping() {
      try {
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      await Promise.all([subscriber.close(), closeRedis(client)]);
    },
  };
}

/** The master serving a key name, as the cluster client last learnt it (the slot while unknown). */
function masterOf(cluster: Cluster, name: string): string {
  const slot = hashSlotOf(name);
  return cluster.slots[slot]?.[0] ?? `slot:${slot}`;
}

/**
 * Calls `onFailover` when the cluster client sees a node leave or join its pool (a master failing,
 * a replica promoted): the sign that changes announced by a failed master may be lost.
 */
export function onClusterFailover(cluster: Cluster, onFailover: () => void): void {
  cluster.on('-node', onFailover);
  cluster.on('+node', onFailover);
}
