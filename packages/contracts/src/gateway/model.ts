import type { Environment } from '@keygate/identity';
import type { KeyBudget } from './plans.ts';

export type { Environment };

/** Who made a change: an API key (through /v2/auth/keys), an administrator, or the gateway itself. */
export type Actor =
  | { type: 'key'; id: string }
  | { type: 'admin'; id: string }
  | { type: 'system'; id: 'keygate' };

export type KeyStatus = 'active' | 'revoked';

/**
 * An API key as stored. Never holds a secret or a hash. The budget fields (plans.ts) are absent on
 * keys stored before plans existed, which read as no identity, no plan, no overrides, no credits.
 */
export interface ApiKey extends Partial<KeyBudget> {
  /** `key_…` */
  id: string;
  name: string;
  environment: Environment;
  /** Normalized scopes (`article:r`, `order:rw`, …). */
  scopes: string[];
  /** Last valid day, `YYYY-MM-DD`, valid through 23:59:59.999 UTC of that day; null = no expiry. */
  expiresAt: string | null;
  /** IPv4/IPv6 addresses and CIDR ranges; empty = any address. */
  ipAllowlist: string[];
  rateLimit: { perMinute: number };
  /** The displayed prefix of the newest secret, e.g. `kg_live_7Hq2xPab`. */
  prefix: string;
  status: KeyStatus;
  revokedAt: string | null;
  /** Lead times (days) whose expiry reminder was already written to the activity log. */
  remindersSent: number[];
  createdAt: string;
  updatedAt: string;
  lastCallAt: string | null;
  /** Bumped on every change; caches and optimistic writes compare it. */
  version: number;
}

/** One secret of a key. A key has one, or two while a rotation overlaps. */
export interface SecretRecord {
  /** `sec_…` */
  id: string;
  keyId: string;
  /** The token's `<lookup>` part: unique, indexed. */
  lookup: string;
  /** Displayed prefix of this secret (`kg_<env>_<lookup>`). */
  prefix: string;
  /** argon2id hash of the whole token. */
  hash: string;
  /**
   * Keyed fast tag of the token (`<kid>.<HMAC-SHA256>`, see gateway/src/keys/secret-tag.ts): wrong
   * secrets are refused without argon2. Null for secrets stored before tags existed, until their
   * first verification.
   */
  tag?: string | null;
  createdAt: string;
  /** When the overlap of a rotation ends (the secret stops at this instant); null = open-ended. */
  closesAt: string | null;
  /** When the secret was closed (by hand, by overlap end, or with the key's revocation); null = not yet. */
  closedAt: string | null;
  closedReason: 'manual' | 'overlap_ended' | 'revoked' | null;
  callCount: number;
  lastCallAt: string | null;
}

/** The actions an activity entry records. */
export const ACTIVITY_ACTIONS = [
  'key.created',
  'key.scopes_changed',
  'key.rotated',
  'key.secret_closed',
  'key.revoked',
  'key.expiry_reminder',
  'key.budget_changed',
  'sandbox.reset',
] as const;

export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** An append-only activity log entry. `before`/`after` are key snapshots or partial fields, never secrets. */
export interface ActivityEntry {
  /** `act_…` */
  id: string;
  /** The key changed; null for an entry about no key (`sandbox.reset`). */
  keyId: string | null;
  environment: Environment;
  action: ActivityAction;
  actor: Actor;
  at: string;
  /** Source IP of the call that made the change; null for the CLI and the system. */
  sourceIp: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Extra facts, e.g. `{ leadDays: 7 }` or `{ secretId, reason }`. */
  details: Record<string, unknown>;
}

/** Upper bounds (ms) of the latency histogram buckets used to compute p50/p95/p99. */
export const LATENCY_BUCKETS_MS = [
  0.5, 1, 2, 3, 5, 7.5, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2500, 5000, 10000,
  30000,
] as const;

/** One line of a key's API log. */
export interface ApiLogEntry {
  /** The gateway's request id (`req_…`). */
  id: string;
  keyId: string;
  secretId: string;
  at: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  clientIp: string;
  /** The call's W3C trace id (32 hex digits) when the gateway traced and sampled it: its trace in the tracing backend. */
  traceId?: string;
  /** Test keys only (the sandbox): the bodies of the request and of the response, as kept. */
  bodies?: LoggedBodies;
}

/** A body as an API log line keeps it: JSON or text only, at most 16 KiB (cut beyond). */
export interface LoggedBody {
  contentType: string;
  /** The body's text (UTF-8), cut at MAX_LOGGED_BODY_BYTES. */
  text: string;
  /** The body was longer than what `text` keeps. */
  truncated: boolean;
}

/** The bodies of one call; null where there was none, or it was neither JSON nor text. */
export interface LoggedBodies {
  request: LoggedBody | null;
  response: LoggedBody | null;
}

/** What an API log line keeps of a body at most, in bytes. */
export const MAX_LOGGED_BODY_BYTES = 16 * 1024;
