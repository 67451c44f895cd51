/** Shapes of the admin API's answers (see the admin API contract); the UI only reads them. */

export type Environment = 'live' | 'test';

/** What the session tells the UI about the gateway's settings. */
export interface SessionSettings {
  environments: Environment[];
  scopes: string[];
  maxOverlapDays: number;
  defaultRateLimitPerMinute: number;
  expiryReminderDays: number[];
}

/** The logged-in administrator's session. */
export interface Session {
  user: { id: string; email: string };
  csrfToken: string;
  idleTimeoutSeconds: number;
  expiresAt: string;
  settings: SessionSettings;
}

/** One secret of a key as listed: never its token. */
export interface PublicSecret {
  id: string;
  prefix: string;
  createdAt: string;
  closesAt: string | null;
  closedAt: string | null;
  closedReason: 'manual' | 'overlap_ended' | 'revoked' | null;
  usable: boolean;
  callCount: number;
  lastCallAt: string | null;
}

/** A key as the admin API shows it. */
export interface PublicKey {
  id: string;
  name: string;
  environment: Environment;
  scopes: string[];
  expiresAt: string | null;
  ipAllowlist: string[];
  rateLimit: { perMinute: number };
  prefix: string;
  status: 'active' | 'revoked';
  revokedAt: string | null;
  expired: boolean;
  expiryReminder: { expiresAt: string; daysLeft: number } | null;
  lastCallAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  rotation: { inProgress: boolean; secrets: PublicSecret[] };
}

/** A key together with a secret that is shown exactly once (create, rotate). */
export interface KeyWithSecret extends PublicKey {
  secret: string;
}

/** Latency figures in milliseconds. */
export interface Latency {
  p50: number;
  p95: number;
  p99: number;
}

/** One step of a key's usage series. */
export interface UsagePoint {
  at: string;
  calls: number;
  errors4xx: number;
  errors5xx: number;
  latencyMs: Latency | null;
}

/** A key's usage over time. */
export interface UsageSeries {
  keyId: string;
  from: string;
  to: string;
  stepMinutes: number;
  points: UsagePoint[];
}

/** One line of a key's API log. */
export interface ApiLogEntry {
  id: string;
  keyId: string;
  secretId: string;
  at: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  clientIp: string;
}

/** One activity log entry: who changed what, when, from where. */
export interface ActivityEntry {
  id: string;
  keyId: string;
  environment: Environment;
  action: string;
  actor: { type: 'key' | 'admin' | 'system'; id: string };
  at: string;
  sourceIp: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  details: Record<string, unknown>;
}

/** A page of a cursor-paged list. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The activity actions the log knows. */
export const ACTIVITY_ACTIONS = [
  'key.created',
  'key.scopes_changed',
  'key.rotated',
  'key.secret_closed',
  'key.revoked',
  'key.expiry_reminder',
] as const;
