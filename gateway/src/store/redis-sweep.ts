import { DAY_MS } from '../keys/lifecycle.ts';
import type { ApiKey, SecretRecord } from '../keys/model.ts';
import { closingMember, closingScore, expiryScore } from './redis-codec.ts';
import { readKey, readSecrets } from './redis-reads.ts';
import type { RedisStoreContext } from './redis-writes.ts';

/** Keys read at once while building the sweep zsets (or scanning without them). */
const BUILD_CHUNK = 500;
/** How long one instance holds the build lock; a crashed builder's lock lapses after this. */
const BUILD_LOCK_MS = 10 * 60_000;

/**
 * The sweep candidates (see `KeyStore.listSweepCandidates`) from two ZRANGEBYSCOREs over the zsets
 * the commit script maintains. Keys written before those zsets existed are indexed once (see
 * `ensureSweepIndexes`); while another instance does that, this call scans every key instead.
 */
export async function readSweepCandidates(
  ctx: RedisStoreContext,
  nowMs: number,
  reminderLeadDays: number,
): Promise<string[]> {
  if (!(await ensureSweepIndexes(ctx))) return scanSweepCandidates(ctx, nowMs, reminderLeadDays);
  const { client, names } = ctx;
  const [closing, expiring] = await Promise.all([
    client.zrangebyscore(names.sweepClosing, '-inf', nowMs),
    reminderLeadDays > 0
      ? client.zrangebyscore(names.sweepExpiry, `(${nowMs}`, nowMs + reminderLeadDays * DAY_MS)
      : [],
  ]);
  const closingKeys = closing.map((member) => member.slice(0, member.indexOf(' ')));
  return [...new Set([...closingKeys, ...expiring])].sort();
}

/**
 * True once the sweep zsets cover every key. The first caller that finds `sweep:ready` missing
 * takes `sweep:build` (SET NX PX), indexes every key and sets `sweep:ready`; a caller that finds
 * the lock taken gets false. Commits keep the zsets current meanwhile, and each key is indexed by
 * a version-checked script, so a commit racing the build is never undone.
 */
async function ensureSweepIndexes(ctx: RedisStoreContext): Promise<boolean> {
  const { client, names } = ctx;
  if ((await client.exists(names.sweepReady)) === 1) return true;
  if ((await client.set(names.sweepBuild, ctx.origin, 'PX', BUILD_LOCK_MS, 'NX')) !== 'OK') return false;
  try {
    await forEachKeyState(ctx, (key, secrets) => indexKey(ctx, key, secrets));
    await client.set(names.sweepReady, new Date().toISOString());
  } finally {
    await client.del(names.sweepBuild);
  }
  return true;
}

/** Writes one key's sweep zset entries; re-reads and retries while the key changes underneath. */
async function indexKey(ctx: RedisStoreContext, key: ApiKey, secrets: SecretRecord[]): Promise<void> {
  const { names } = ctx;
  for (let state: { key: ApiKey | null; secrets: SecretRecord[] } = { key, secrets }; state.key; ) {
    const args = state.secrets.flatMap((s) => [closingMember(s), closingScore(s) ?? '']);
    const done = await ctx.scripts.indexSweepKey(
      3,
      names.key(state.key.id),
      names.sweepClosing,
      names.sweepExpiry,
      String(state.key.version),
      state.key.id,
      expiryScore(state.key) ?? '',
      ...args,
    );
    if (done === 1) return;
    state = await readKeyState(ctx, state.key.id);
  }
}

/** The candidates computed from every key and secret: the cost the zsets exist to avoid. */
async function scanSweepCandidates(
  ctx: RedisStoreContext,
  nowMs: number,
  reminderLeadDays: number,
): Promise<string[]> {
  const ids = new Set<string>();
  await forEachKeyState(ctx, async (key, secrets) => {
    const expiry = expiryScore(key);
    const expiring = expiry !== null && expiry > nowMs && expiry <= nowMs + reminderLeadDays * DAY_MS;
    const closing = secrets.some((secret) => (closingScore(secret) ?? Number.POSITIVE_INFINITY) <= nowMs);
    if (expiring || closing) ids.add(key.id);
  });
  return [...ids].sort();
}

/** Reads every key with its secrets (BUILD_CHUNK keys at a time) and hands each to `visit`. */
async function forEachKeyState(
  ctx: RedisStoreContext,
  visit: (key: ApiKey, secrets: SecretRecord[]) => Promise<void>,
): Promise<void> {
  const ids = await ctx.client.zrevrange(ctx.names.keysAll, 0, -1);
  for (let i = 0; i < ids.length; i += BUILD_CHUNK) {
    await Promise.all(
      ids.slice(i, i + BUILD_CHUNK).map(async (id) => {
        const { key, secrets } = await readKeyState(ctx, id);
        if (key) await visit(key, secrets);
      }),
    );
  }
}

/** A key and its secrets; the key is read first, so a version check afterwards covers both reads. */
async function readKeyState(
  ctx: RedisStoreContext,
  id: string,
): Promise<{ key: ApiKey | null; secrets: SecretRecord[] }> {
  const key = readKey(ctx, id);
  const secrets = readSecrets(ctx, id);
  return { key: await key, secrets: await secrets };
}
