import { MAX_USAGE_RANGE_MS } from '@keygate/contracts/gateway';
import type { ActivityEntry, Actor, ApiKey, ApiLogEntry } from '../model/model.ts';
import { InvalidCursorError } from '../store/cursor.ts';
import type { ActivityFilter, KeyFilter, LogFilter, Page } from '../store/store.ts';
import { loadKeyState, resolveActorKey } from './change-runner.ts';
import { keyNotFound } from './escalation.ts';
import { validationError } from './key-input.ts';
import type { PublicKey } from './public-key.ts';
import { toPublicKey } from './public-key.ts';
import type { ServiceContext } from './service-context.ts';
import { buildUsageSeries, chooseStepMinutes, type UsageSeries } from './usage-series.ts';
import { type KeyUsage, summarizeUsage } from './usage-stats.ts';

export { MAX_USAGE_RANGE_MS };

/** The target key if the actor may read it: a key actor sees only its own environment (else 404). */
async function readableKey(ctx: ServiceContext, actor: Actor, keyId: string): Promise<ApiKey> {
  const actorKey = await resolveActorKey(ctx, actor);
  const key = await ctx.store.getKey(keyId);
  if (!key || (actorKey && key.environment !== actorKey.environment)) throw keyNotFound(keyId);
  return key;
}

/** One key's public view. */
export async function getKey(ctx: ServiceContext, actor: Actor, keyId: string): Promise<PublicKey> {
  await readableKey(ctx, actor, keyId);
  const state = await loadKeyState(ctx.store, keyId);
  return toPublicKey(state.key, state.secrets, ctx.clock(), ctx.config.expiryReminderDays[0]);
}

/** Keys newest first; a key actor sees only its own environment whatever the filter says. */
export async function listKeys(
  ctx: ServiceContext,
  actor: Actor,
  filter: KeyFilter = {},
): Promise<PublicKey[]> {
  const actorKey = await resolveActorKey(ctx, actor);
  const keys = await ctx.store.listKeys(actorKey ? { ...filter, environment: actorKey.environment } : filter);
  const nowMs = ctx.clock();
  return Promise.all(
    keys.map(async (key) =>
      toPublicKey(key, await ctx.store.listSecrets(key.id), nowMs, ctx.config.expiryReminderDays[0]),
    ),
  );
}

/** Default usage range: the last 24 hours. */
export const DEFAULT_USAGE_RANGE_MS = 86_400_000;

/** [from, to) in epoch ms from a query: default the last 24 h (or 24 h from `from`), at most 31 days; else 422. */
function resolveUsageRange(ctx: ServiceContext, query: { from?: number; to?: number }) {
  const to = query.to ?? (query.from !== undefined ? query.from + DEFAULT_USAGE_RANGE_MS : ctx.clock());
  const range = { from: query.from ?? to - DEFAULT_USAGE_RANGE_MS, to };
  if (!(range.from < range.to))
    throw validationError([{ detail: 'from must be before to', pointer: '/from' }]);
  if (range.to - range.from > MAX_USAGE_RANGE_MS) {
    throw validationError([{ detail: 'the range is limited to 31 days', pointer: '/to' }]);
  }
  return range;
}

/** Usage of a key over [from, to) (epoch ms; default the last 24 h, at most 31 days), totals and per secret. */
export async function getUsage(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  query: { from?: number; to?: number } = {},
): Promise<KeyUsage> {
  const range = resolveUsageRange(ctx, query);
  await readableKey(ctx, actor, keyId);
  const buckets = await ctx.store.queryUsage({ keyId, from: range.from, to: range.to });
  return summarizeUsage(keyId, range.from, range.to, buckets);
}

/**
 * A key's usage over time: [from, to) as for getUsage, `from` floored to its minute, cut into steps
 * (`stepMinutes`, raised where needed so there are at most 288 points).
 */
export async function getUsageSeries(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  query: { from?: number; to?: number; stepMinutes?: number } = {},
): Promise<UsageSeries> {
  const range = resolveUsageRange(ctx, query);
  const from = Math.floor(range.from / 60_000) * 60_000;
  const stepMinutes = chooseStepMinutes(range.to - from, query.stepMinutes);
  await readableKey(ctx, actor, keyId);
  const buckets = await ctx.store.queryUsage({ keyId, from, to: range.to });
  return buildUsageSeries(keyId, from, range.to, stepMinutes, buckets);
}

/** A key's API log, newest first. */
export async function getLogs(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  filter: Omit<LogFilter, 'keyId'> = {},
): Promise<Page<ApiLogEntry>> {
  await readableKey(ctx, actor, keyId);
  return withCursor(() => ctx.store.queryLogs({ ...filter, keyId }));
}

/** A key's activity, newest first. */
export async function getActivity(
  ctx: ServiceContext,
  actor: Actor,
  keyId: string,
  filter: Omit<ActivityFilter, 'keyId' | 'environment'> = {},
): Promise<Page<ActivityEntry>> {
  await readableKey(ctx, actor, keyId);
  return withCursor(() => ctx.store.listActivity({ ...filter, keyId }));
}

/** Turns a cursor the store did not make into 422 VALIDATION_FAILED. */
export async function withCursor<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InvalidCursorError) {
      throw validationError([
        { detail: 'invalid cursor; use nextCursor of a previous page', pointer: '/cursor' },
      ]);
    }
    throw error;
  }
}
