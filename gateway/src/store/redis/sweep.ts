import { DAY_MS } from '../../model/lifecycle.ts';
import type { ApiKey, SecretRecord } from '../../model/model.ts';
import { closingMember, closingScore, expiryScore } from './codec.ts';
import { readKey, readSecrets } from './reads.ts';
import type { RedisStoreContext } from './writes.ts';

/** Keys read at once (one pipelined batch) while building the sweep zsets, scanning, or filtering reminders. */
const BUILD_CHUNK = 500;
/** How long one instance holds the build lock; a crashed builder's lock lapses after this. */
const BUILD_LOCK_MS = 10 * 60_000;

/**
 * The sweep candidates (see `KeyStore.listSweepCandidates`) from two ZRANGEBYSCOREs over the zsets
 * the commit script maintains, plus a read of each key inside the largest lead (its `remindersSent`). Keys written before those zsets existed are indexed once (see
 * `ensureSweepIndexes`); while another instance does that, this call scans every key instead.
 */
export async function readSweepCandidates(
  ctx: RedisStoreContext,
  nowMs: number,
  reminderLeadDays: readonly number[],
): Promise<string[]> {
  // Each slot group has its own sweep zsets (and its own one-time build), next to its keys.
  const found = await Promise.all(
    ctx.layout.groups.map((names) => readGroupCandidates({ ...ctx, names }, nowMs, reminderLeadDays)),
  );
  return [...new Set(found.flat())].sort();
}

/** The candidates of the slot group `ctx.names`. */
async function readGroupCandidates(
  ctx: RedisStoreContext,
  nowMs: number,
  reminderLeadDays: readonly number[],
): Promise<string[]> {
  if (!(await ensureSweepIndexes(ctx))) return scanSweepCandidates(ctx, nowMs, reminderLeadDays);
  const { client, names } = ctx;
  const [closing, expiring] = await Promise.all([
    client.zrangebyscore(names.sweepClosing, '-inf', nowMs),
    readExpiring(ctx, nowMs, reminderLeadDays),
  ]);
  const closingKeys = closing.map((member) => member.slice(0, member.indexOf(' ')));
  return [...new Set([...closingKeys, ...expiring])].sort();
}

/** Keys of sweep:expiry inside the largest lead, kept when they entered a lead they have no reminder for. */
async function readExpiring(
  ctx: RedisStoreContext,
  nowMs: number,
  reminderLeadDays: readonly number[],
): Promise<string[]> {
  const largest = Math.max(0, ...reminderLeadDays);
  if (largest === 0) return [];
  const reply = await ctx.client.zrangebyscore(
    ctx.names.sweepExpiry,
    `(${nowMs}`,
    nowMs + largest * DAY_MS,
    'WITHSCORES',
  );
  const due: string[] = [];
  for (let i = 0; i < reply.length; i += 2 * BUILD_CHUNK) {
    const chunk = reply.slice(i, i + 2 * BUILD_CHUNK);
    const ids = chunk.filter((_, n) => n % 2 === 0);
    const keys = await Promise.all(ids.map((id) => readKey(ctx, id)));
    keys.forEach((key, n) => {
      if (key && dueForReminder(key, Number(chunk[n * 2 + 1]), nowMs, reminderLeadDays)) due.push(key.id);
    });
  }
  return due;
}

/** True when the key (expiry end `endMs`) is active and inside the window of a lead it has no reminder for. */
function dueForReminder(key: ApiKey, endMs: number, nowMs: number, leads: readonly number[]): boolean {
  const entered = (lead: number) => endMs > nowMs && endMs <= nowMs + lead * DAY_MS;
  return key.status === 'active' && leads.some((lead) => entered(lead) && !key.remindersSent.includes(lead));
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
  reminderLeadDays: readonly number[],
): Promise<string[]> {
  const ids = new Set<string>();
  await forEachKeyState(ctx, async (key, secrets) => {
    const expiry = expiryScore(key);
    const expiring = expiry !== null && dueForReminder(key, expiry, nowMs, reminderLeadDays);
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
