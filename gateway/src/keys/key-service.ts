import type { ActivityEntry, Actor, ApiLogEntry } from '../model/model.ts';
import type { ActivityFilter, KeyFilter, LogFilter, Page } from '../store/store.ts';
import { changeBudget } from './change-budget.ts';
import { type CreatedKey, type CreateKeyRequest, createKey } from './create-key.ts';
import { changeScopes, closeSecret, revokeKey, rotateKey } from './modify-key.ts';
import type { PublicKey } from './public-key.ts';
import { getActivity, getKey, getLogs, getUsage, getUsageSeries, listKeys, withCursor } from './read-key.ts';
import { createServiceContext, type KeyServiceDeps, type RequestContext } from './service-context.ts';
import { type SweepResult, sweep } from './sweep.ts';
import type { UsageSeries } from './usage-series.ts';
import type { KeyUsage } from './usage-stats.ts';

export type { CreatedKey, CreateKeyRequest } from './create-key.ts';
export type { KeyServiceConfig, KeyServiceDeps, RequestContext } from './service-context.ts';
export { DEFAULT_KEY_SERVICE_CONFIG } from './service-context.ts';
export type { SweepResult } from './sweep.ts';

/**
 * The key domain: every change to a key goes through here (API, CLI, admin interface). Changes
 * by an actor of type `key` obey the no-escalation rules (see escalation.ts); administrators
 * bypass them. Each change is one version-checked store commit with its activity entry, then an
 * event so caches drop the key. Errors are GatewayErrors with codes from errors.ts.
 */
export interface KeyService {
  /** Creates a key; the token is returned here only. */
  createKey(actor: Actor, input: CreateKeyRequest, ctx: RequestContext<CreatedKey>): Promise<CreatedKey>;
  /** One key (404 for a key actor asking about another environment). */
  getKey(actor: Actor, keyId: string): Promise<PublicKey>;
  /** Keys newest first; key actors see their own environment only. */
  listKeys(actor: Actor, filter?: KeyFilter): Promise<PublicKey[]>;
  /** Replaces the key's scopes. */
  changeScopes(
    actor: Actor,
    keyId: string,
    scopes: readonly string[],
    ctx: RequestContext<PublicKey>,
  ): Promise<PublicKey>;
  /** Replaces the key's plan, identity and overrides (`{planId?, identityId?, limits?, quotas?}`). */
  changeBudget(
    actor: Actor,
    keyId: string,
    input: unknown,
    ctx: RequestContext<PublicKey>,
  ): Promise<PublicKey>;
  /** Revokes the key and closes all its secrets. */
  revokeKey(actor: Actor, keyId: string, ctx: RequestContext): Promise<PublicKey>;
  /** Adds a new secret; the old one stays open for the overlap. The new token is returned here only. */
  rotateKey(
    actor: Actor,
    keyId: string,
    input: { overlapDays?: number },
    ctx: RequestContext<CreatedKey>,
  ): Promise<CreatedKey>;
  /** Closes the given old secret, or every old secret still open, at once. */
  closeSecret(
    actor: Actor,
    keyId: string,
    secretId: string | undefined,
    ctx: RequestContext<PublicKey>,
  ): Promise<PublicKey>;
  /** Traffic of a key in [from, to) (epoch ms; default the last 24 h), totals and per secret with latency percentiles. */
  getUsage(actor: Actor, keyId: string, range?: { from?: number; to?: number }): Promise<KeyUsage>;
  /** Usage of a key over [from, to) in steps (calls, 4xx, 5xx, latency percentiles), at most 288 points. */
  getUsageSeries(
    actor: Actor,
    keyId: string,
    range?: { from?: number; to?: number; stepMinutes?: number },
  ): Promise<UsageSeries>;
  /** A key's API log, newest first. */
  getLogs(actor: Actor, keyId: string, filter?: Omit<LogFilter, 'keyId'>): Promise<Page<ApiLogEntry>>;
  /** A key's activity, newest first. */
  getActivity(
    actor: Actor,
    keyId: string,
    filter?: Omit<ActivityFilter, 'keyId' | 'environment'>,
  ): Promise<Page<ActivityEntry>>;
  /** Activity of every key (administrators only: the caller checks), newest first. */
  listActivity(filter?: ActivityFilter): Promise<Page<ActivityEntry>>;
  /** Closes secrets whose overlap ended and writes due expiry reminders. */
  sweep(nowMs?: number): Promise<SweepResult>;
}

/** Builds the key service from its ports (store, hasher, events, clock) and optional config. */
export function createKeyService(deps: KeyServiceDeps): KeyService {
  const ctx = createServiceContext(deps);
  return {
    createKey: (actor, input, origin) => createKey(ctx, actor, input, origin),
    getKey: (actor, keyId) => getKey(ctx, actor, keyId),
    listKeys: (actor, filter) => listKeys(ctx, actor, filter),
    changeScopes: (actor, keyId, scopes, origin) => changeScopes(ctx, actor, keyId, scopes, origin),
    changeBudget: (actor, keyId, input, origin) => changeBudget(ctx, actor, keyId, input, origin),
    revokeKey: (actor, keyId, origin) => revokeKey(ctx, actor, keyId, origin),
    rotateKey: (actor, keyId, input, origin) => rotateKey(ctx, actor, keyId, input, origin),
    closeSecret: (actor, keyId, secretId, origin) => closeSecret(ctx, actor, keyId, secretId, origin),
    getUsage: (actor, keyId, range) => getUsage(ctx, actor, keyId, range),
    getUsageSeries: (actor, keyId, range) => getUsageSeries(ctx, actor, keyId, range),
    getLogs: (actor, keyId, filter) => getLogs(ctx, actor, keyId, filter),
    getActivity: (actor, keyId, filter) => getActivity(ctx, actor, keyId, filter),
    listActivity: (filter = {}) => withCursor(() => ctx.store.listActivity(filter)),
    sweep: (nowMs) => sweep(ctx, nowMs),
  };
}
