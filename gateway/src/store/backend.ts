import type { AlertStore } from '../model/alert-store.ts';
// What open-backend.ts opens, apart from how: both the SQLite and the Redis half implement it.

import type { BucketRetention } from '../budget/call-buckets.ts';
import type { BudgetLedger } from '../budget/ledger.ts';
import type { BudgetUsageStore } from '../budget/usage-meter.ts';
import type { KeyEvents } from '../model/events.ts';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.ts';
import type { LimiterSource } from '../rate-limit/redis-rate-limiter.ts';
import type { RedisConnectionOptions, RedisLogger } from './redis/connection.ts';
import type { RedisTarget } from './redis/target.ts';
import type { KeyStore } from './store.ts';

/** The settings every Redis connection of a backend is opened with. */
type ConnectionSettings = Pick<
  RedisConnectionOptions,
  'connectTimeoutMs' | 'commandTimeoutMs' | 'circuitTimeouts' | 'circuitProbeMs'
>;

/** Where state lives: Redis when `redisUrl` is set, else the SQLite file. */
export interface BackendOptions extends ConnectionSettings {
  /** A standalone Redis URL, or Sentinel or Cluster settings. */
  redisUrl: RedisTarget | null;
  redisPrefix: string;
  databaseFile: string;
  /** How long analytics buckets are kept (Redis expires them; SQLite's meter prunes them). */
  bucketRetention?: BucketRetention;
  logger?: RedisLogger;
  /** A Redis call failed (`operation` = store method, or `connection` for a connection error). */
  onRedisError?(operation: string): void;
  /** Which limiter decided a rate-limit call (Redis only). */
  onLimiterDecision?(source: LimiterSource): void;
}

/** An opened store; on Redis it answers 503 STORE_UNAVAILABLE (GatewayError) for every failed call. */
export interface OpenedStore {
  store: KeyStore;
  /** The alert outbox on the same store (the CLI records the alerts of its key changes there). */
  alerts?: AlertStore;
  /** Redis only: true while the command connection is ready. */
  isRedisUp?(): boolean;
  /** Closes the store and every connection opened with it. */
  close(): Promise<void>;
}

/** Everything a gateway instance shares with the others: store, key events, rate limits. */
export interface GatewayBackend extends OpenedStore {
  events: KeyEvents;
  /** Redis only; the single-instance default is the in-memory limiter. */
  rateLimiter?: KeyRateLimiter;
  /** Plans, quotas and credits: in process on SQLite (written behind), in Redis scripts on Redis. */
  ledger: BudgetLedger;
  /** Billing usage by day and outcome, and analytics buckets by minute, hour and day. */
  budgetUsage: BudgetUsageStore;
  /** The alert outbox and its endpoints, shared by every instance. */
  alerts: AlertStore;
}
