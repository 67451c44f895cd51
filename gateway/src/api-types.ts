/**
 * Types of the answers of the gateway's own key-management and admin API, for TypeScript clients
 * of it (the admin interface). Types only: an `import type` from here brings no gateway code along.
 */
export type {
  ActivityAction,
  ActivityEntry,
  ApiLogEntry,
  Environment,
  LoggedBodies,
  LoggedBody,
} from './keys/model.ts';
export type { PublicKey, PublicSecret } from './keys/public-key.ts';
export type { UsagePoint, UsageSeries } from './keys/usage-series.ts';
export type { KeyUsage } from './keys/usage-stats.ts';
export type { Page } from './store/store.ts';
