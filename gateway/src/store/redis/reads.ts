import type { ActivityEntry, ApiKey, ApiLogEntry, SecretRecord, UsageBucket } from '../../keys/model.ts';
import { decodeCursor, encodeCursor, pageSizeOf } from '../cursor.ts';
import type { ActivityFilter, KeyFilter, LogFilter, Page, UsageQuery } from '../store.ts';
import { decodeKey, decodeSecret, decodeUsage, KEY_FIELDS, SECRET_FIELDS } from './codec.ts';
import { keyIndexFor, lexMember } from './keys.ts';
import type { RedisStoreContext } from './writes.ts';

/** Index entries one page script call may walk before handing back a resume bound. */
const SCAN_BUDGET = 2000;

/** The key with this id, or null: one HMGET. */
export async function readKey(ctx: RedisStoreContext, id: string): Promise<ApiKey | null> {
  return decodeKey(await ctx.client.hmget(ctx.names.key(id), ...KEY_FIELDS));
}

/** Keys from the index matching the filter, newest first; re-checked against the hash in case a change raced the index read. */
export async function readKeys(ctx: RedisStoreContext, filter: KeyFilter): Promise<ApiKey[]> {
  const ids = await ctx.client.zrevrange(keyIndexFor(ctx.names, filter), 0, -1);
  const rows = await Promise.all(
    ids.map((id) => ctx.client.hmget(ctx.names.key(id), ...KEY_FIELDS, 'environment', 'status')),
  );
  const keys: ApiKey[] = [];
  for (const row of rows) {
    const key = decodeKey(row);
    if (!key) continue;
    if (filter.environment && key.environment !== filter.environment) continue;
    if (filter.status && key.status !== filter.status) continue;
    keys.push(key);
  }
  return keys;
}

/** Every secret of a key, newest first. */
export async function readSecrets(ctx: RedisStoreContext, keyId: string): Promise<SecretRecord[]> {
  const ids = await ctx.client.zrevrange(ctx.names.keySecrets(keyId), 0, -1);
  const rows = await Promise.all(ids.map((id) => ctx.client.hmget(ctx.names.secret(id), ...SECRET_FIELDS)));
  return rows.map(decodeSecret).filter((secret): secret is SecretRecord => secret !== null);
}

/** The secret with this lookup and its key, read in one script (one round trip, one snapshot). */
export async function readByLookup(
  ctx: RedisStoreContext,
  lookup: string,
): Promise<{ key: ApiKey; secret: SecretRecord } | null> {
  const { names } = ctx;
  const reply = (await ctx.scripts.findByLookup(
    1,
    names.lookups,
    lookup,
    names.secretPrefix,
    names.keyPrefix,
  )) as (string | null)[] | null;
  if (!reply) return null;
  const secret = decodeSecret([...reply.slice(0, 4), reply[7] ?? null]);
  const key = decodeKey(reply.slice(4, 7));
  return secret && key ? { key, secret } : null;
}

/** Usage buckets of a key with from ≤ minute < to, ordered by (minute, secretId); expired ones are skipped. */
export async function readUsage(ctx: RedisStoreContext, query: UsageQuery): Promise<UsageBucket[]> {
  const members = await ctx.client.zrangebyscore(
    ctx.names.usageIndex(query.keyId),
    query.from,
    `(${query.to}`,
  );
  const refs = members.map((member) => {
    const colon = member.indexOf(':');
    return { minute: Number(member.slice(0, colon)), secretId: member.slice(colon + 1) };
  });
  const hashes = await Promise.all(
    refs.map((ref) => ctx.client.hgetall(ctx.names.usage(query.keyId, ref.secretId, ref.minute))),
  );
  const buckets = refs
    .map((ref, i) => decodeUsage(query.keyId, ref.secretId, ref.minute, hashes[i] ?? {}))
    .filter((bucket): bucket is UsageBucket => bucket !== null);
  return buckets.sort((a, b) => a.minute - b.minute || (a.secretId < b.secretId ? -1 : 1));
}

/** Lex bounds (newest-first walk) for a time range and a cursor: the lower of `to` and the cursor wins. */
function lexBounds(filter: { from?: string; to?: string; cursor?: string }): { max: string; min: string } {
  const uppers: string[] = [];
  if (filter.to) uppers.push(filter.to);
  if (filter.cursor) {
    const position = decodeCursor(filter.cursor);
    uppers.push(lexMember(position.at, position.id));
  }
  const upper = uppers.sort()[0];
  return { max: upper === undefined ? '+' : `(${upper}`, min: filter.from ? `[${filter.from}` : '-' };
}

/** Walks a lex index newest first until `want` entries matched the filters (or the index ends). */
async function scanIndex(
  ctx: RedisStoreContext,
  index: string,
  data: string,
  bounds: { max: string; min: string },
  want: number,
  filters: string[],
): Promise<string[]> {
  const found: string[] = [];
  let max = bounds.max;
  for (;;) {
    const reply = (await ctx.scripts.scanPage(
      2,
      index,
      data,
      max,
      bounds.min,
      want - found.length,
      SCAN_BUDGET,
      ...filters,
    )) as string[];
    const [resume, ...items] = reply;
    found.push(...items);
    if (!resume || found.length >= want) return found;
    max = resume;
  }
}

/** A page from up to `limit + 1` entries: the extra one only says that more follow. */
function toPage<T extends { at: string; id: string }>(jsons: string[], limit: number): Page<T> {
  const items = jsons.slice(0, limit).map((json) => JSON.parse(json) as T);
  const last = items.at(-1);
  return { items, nextCursor: jsons.length > limit && last ? encodeCursor(last) : null };
}

/** Activity matching the filter, newest first, keyset-paginated over (at, id). */
export async function readActivityPage(
  ctx: RedisStoreContext,
  filter: ActivityFilter,
): Promise<Page<ActivityEntry>> {
  const { names } = ctx;
  const limit = pageSizeOf(filter.limit);
  const bounds = lexBounds(filter);
  let index = names.activityAll;
  const filters: string[] = [];
  if (filter.keyId) {
    index = names.activityByKey(filter.keyId);
    if (filter.environment) filters.push('environment', filter.environment);
  } else if (filter.environment) {
    index = names.activityByEnv(filter.environment);
  }
  if (filter.action) filters.push('action', filter.action);
  return toPage(await scanIndex(ctx, index, names.activity, bounds, limit + 1, filters), limit);
}

/** A key's API log lines, newest first, keyset-paginated over (at, id). */
export async function readLogPage(ctx: RedisStoreContext, filter: LogFilter): Promise<Page<ApiLogEntry>> {
  const { names } = ctx;
  const limit = pageSizeOf(filter.limit);
  const filters = filter.secretId ? ['secretId', filter.secretId] : [];
  const jsons = await scanIndex(
    ctx,
    names.logs(filter.keyId),
    names.logLines(filter.keyId),
    lexBounds(filter),
    limit + 1,
    filters,
  );
  return toPage(jsons, limit);
}
