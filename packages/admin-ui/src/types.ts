/**
 * Shapes of the admin API's answers; the UI only reads them. The key, log, activity and usage
 * shapes are the gateway's own types (types only: nothing of the gateway is bundled).
 */
import type { ActivityAction, Environment, PublicKey } from '@keygate/contracts/gateway';

export type {
  ActivityEntry,
  ApiLogEntry,
  Environment,
  LoggedBody,
  Page,
  PublicKey,
  PublicSecret,
  UsageSeries,
} from '@keygate/contracts/gateway';

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

/** A key together with a secret that is shown exactly once (create, rotate). */
export interface KeyWithSecret extends PublicKey {
  secret: string;
}

/** The activity actions, for the filter; a Record so the compiler finds one missing or unknown. */
const ACTIONS: Record<ActivityAction, true> = {
  'key.created': true,
  'key.scopes_changed': true,
  'key.rotated': true,
  'key.secret_closed': true,
  'key.revoked': true,
  'key.expiry_reminder': true,
  'key.budget_changed': true,
  'sandbox.reset': true,
};

/** The activity actions the log knows. */
export const ACTIVITY_ACTIONS = Object.keys(ACTIONS) as ActivityAction[];

/** The environments a key may belong to, for the filters. */
export const ENVIRONMENTS: readonly Environment[] = ['live', 'test'];
