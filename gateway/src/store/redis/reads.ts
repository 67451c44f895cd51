import type { ActivityEntry, ApiKey, ApiLogEntry, SecretRecord, UsageBucket } from '../../model/model.ts';
import { decodeCursor, encodeCursor, pageSizeOf } from '../cursor.ts';
import type { ActivityFilter, KeyFilter, LogFilter, Page, UsageQuery } from '../store.ts';
import { decodeKey, decodeSecret, decodeUsage, KEY_FIELDS, SECRET_FIELDS } from './codec.ts';
import { keyIndexFor, lexMember, type RedisKeyNames } from './keys.ts';
import type { RedisStoreContext } from './writes.ts';

/** Index entries one page script call may walk before handing back a resume bound. */
const SCAN_BUDGET = 2000;

/** The key with this id, or null: one HMGET. */
export async function readKey(ctx: RedisStoreContext, id: string): Promise<ApiKey | null> {
  return decodeKey(await ctx.client.hmget(ctx.layout.forKey(id).key(id), ...KEY_FIELDS));
}

/**
 * Keys from the index matching the filter (every slot group's), newest first; re-checked against
 * the hash in case a change raced the index read.
 */
export async function readKeys(ctx: RedisStoreContext, filter: KeyFilter): Promise<ApiKey[]> {
  const { groups } = ctx.layout;
  const ids =
    groups.length === 1
      ? await ctx.client.zrevrange(keyIndexFor(groups[0]!, filter), 0, -1)
      : await readMergedKeyIds(ctx, filter);
  const rows = await Promise.all(
    ids.map((id) => ctx.client.hmget(ctx.layout.forKey(id).key(id), ...KEY_FIELDS, 'environment', 'status')),
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

/** The ids of every group's index for the filter, in one index's order (score, then id, descending). */
async function readMergedKeyIds(ctx: RedisStoreContext, filter: KeyFilter): Promise<string[]> {
  const replies = await Promise.all(
    ctx.layout.groups.map((names) => ctx.client.zrevrange(keyIndexFor(names, filter), 0, -1, 'WITHSCORES')),
  );
  const entries: { id: string; score: number }[] = [];
  for (const reply of replies)
    for (let i = 0; i < reply.length; i += 2) entries.push({ id: reply[i]!, score: Number(reply[i + 1]) });
  entries.sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return entries.map((entry) => entry.id);
}

/** Every secret of a key, newest first. */
export async function readSecrets(ctx: RedisStoreContext, keyId: string): Promise<SecretRecord[]> {
  const names = ctx.layout.forKey(keyId);
  const ids = await ctx.client.zrevrange(names.keySecrets(keyId), 0, -1);
  const rows = await Promise.all(ids.map((id) => ctx.client.hmget(names.secret(id), ...SECRET_FIELDS)));
  return rows.map(decodeSecret).filter((secret): secret is SecretRecord => secret !== null);
}

/**
 * The secret with this lookup and its key, read in one script (one round trip, one snapshot). A
 * token does not say which slot group its key is in, so on a Cluster every group is asked at once
 * (the calls to one master share a round trip); a lookup is asked only on a verification cache miss.
 */
export async function readByLookup(
  ctx: RedisStoreContext,
  lookup: string,
): Promise<{ key: ApiKey; secret: SecretRecord } | null> {
  const replies = await Promise.all(
    ctx.layout.groups.map(
      (names) =>
        ctx.scripts.findByLookup(1, names.lookups, lookup, names.secretPrefix, names.keyPrefix) as Promise<
          (string | null)[] | null
        >,
    ),
  );
  const reply = replies.find((found) => found);
  if (!reply) return null;
  const secret = decodeSecret([...reply.slice(0, 4), reply[7] ?? null]);
  const key = decodeKey(reply.slice(4, 7));
  return secret && key ? { key, secret } : null;
}

/** Usage buckets of a key with from ≤ minute < to, ordered by (minute, secretId); expired ones are skipped. */
export async function readUsage(ctx: RedisStoreContext, query: UsageQuery): Promise<UsageBucket[]> {
  const names = ctx.layout.forKey(query.keyId);
  const members = await ctx.client.zrangebyscore(names.usageIndex(query.keyId), query.from, `(${query.to}`);
  const refs = members.map((member) => {
    const colon = member.indexOf(':');
    return { minute: Number(member.slice(0, colon)), secretId: member.slice(colon + 1) };
  });
  const hashes = await Promise.all(
    refs.map((ref) => ctx.client.hgetall(names.usage(query.keyId, ref.secretId, ref.minute))),
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
  const limit = pageSizeOf(filter.limit);
  const bounds = lexBounds(filter);
  const filters: string[] = [];
  if (filter.keyId && filter.environment) filters.push('environment', filter.environment);
  if (filter.action) filters.push('action', filter.action);
  const indexOf = (names: RedisKeyNames) => {
    if (filter.keyId) return names.activityByKey(filter.keyId);
    return filter.environment ? names.activityByEnv(filter.environment) : names.activityAll;
  };
  // A key's activity is in its slot group; anything wider is merged from every group's page, and
  // the page of activity about no key (a sandbox reset).
  const groups = filter.keyId ? [ctx.layout.forKey(filter.keyId)] : ctx.layout.activityGroups;
  const pages = await Promise.all(
    groups.map((names) => scanIndex(ctx, indexOf(names), names.activity, bounds, limit + 1, filters)),
  );
  return toPage(pages.length === 1 ? pages[0]! : newestFirst(pages.flat()).slice(0, limit + 1), limit);
}

/** Entry JSONs in (at, id) order, newest first, as one lex index would hold them. */
function newestFirst(jsons: string[]): string[] {
  const keyed = jsons.map((json) => {
    const { at, id } = JSON.parse(json) as { at: string; id: string };
    return { json, member: lexMember(at, id) };
  });
  keyed.sort((a, b) => (a.member < b.member ? 1 : a.member > b.member ? -1 : 0));
  return keyed.map((entry) => entry.json);
}

/** A key's API log lines, newest first, keyset-paginated over (at, id). */
export async function readLogPage(ctx: RedisStoreContext, filter: LogFilter): Promise<Page<ApiLogEntry>> {
  const names = ctx.layout.forKey(filter.keyId);
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
