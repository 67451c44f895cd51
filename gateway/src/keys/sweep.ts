import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { expiryReminder } from '../model/lifecycle.ts';
import type { ApiKey, SecretRecord } from '../model/model.ts';
import { applyChange, type ChangeOrigin } from './change-runner.ts';
import { snapshotSecret } from './public-key.ts';
import type { ServiceContext } from './service-context.ts';

const SYSTEM: ChangeOrigin = { actor: { type: 'system', id: 'keygate' }, sourceIp: null };
/**
 * Keys swept between two turns of the event loop. A synchronous store (SQLite) answers every await
 * in a microtask, so without these turns a sweep of 100,000 keys held every request for seconds.
 */
const KEYS_PER_TURN = 100;

/** What one sweep did. */
export interface SweepResult {
  secretsClosed: number;
  remindersWritten: number;
}

function isDue(secret: SecretRecord, nowMs: number): boolean {
  return secret.closedAt === null && secret.closesAt !== null && Date.parse(secret.closesAt) <= nowMs;
}

/**
 * Housekeeping, safe to run from several instances at once (each step is a version-checked change
 * re-planned on fresh state, so it happens once):
 * - closes every secret whose overlap ended (`closedAt = closesAt`, reason `overlap_ended`) and logs
 *   `key.secret_closed` with `{secretId, reason: 'overlap_ended'}` (revoking a key does the same
 *   first, so every overlap end is logged even on keys revoked before a sweep saw them);
 * - for each active key inside reminder lead times not yet reminded, logs one `key.expiry_reminder`
 *   per lead time entered (`{leadDays, daysLeft, expiresAt}`, largest lead first, even when several
 *   windows were entered at once) and marks each lead in `remindersSent`.
 * Nothing on the request path depends on this: the data plane checks closesAt and expiry itself.
 * Only the store's sweep candidates are read (active keys among them), not every key;
 * every candidate is attempted; failures are thrown together at the end as an AggregateError.
 */
export async function sweep(ctx: ServiceContext, nowMs: number = ctx.clock()): Promise<SweepResult> {
  const result: SweepResult = { secretsClosed: 0, remindersWritten: 0 };
  const failures: unknown[] = [];
  let swept = 0;
  for (const keyId of await ctx.store.listSweepCandidates(nowMs, ctx.config.expiryReminderDays)) {
    if (++swept % KEYS_PER_TURN === 0) await yieldToEventLoop();
    try {
      const key = await ctx.store.getKey(keyId);
      if (key?.status !== 'active') continue;
      result.secretsClosed += await closeEndedOverlaps(ctx, key.id, nowMs);
      result.remindersWritten += await writeReminders(ctx, key, nowMs);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `sweep failed for ${failures.length} key(s)`);
  return result;
}

/**
 * Closes every secret of the key whose overlap ended by `nowMs` and is not closed yet, one change
 * each (`closedAt = closesAt`, reason `overlap_ended`, by the system); returns how many it closed.
 */
export async function closeEndedOverlaps(ctx: ServiceContext, keyId: string, nowMs: number): Promise<number> {
  const deps = { ...ctx, clock: () => nowMs };
  let count = 0;
  for (const due of (await ctx.store.listSecrets(keyId)).filter((secret) => isDue(secret, nowMs))) {
    let closed = false;
    await applyChange(deps, keyId, SYSTEM, ({ key: fresh, secrets }) => {
      closed = false;
      const secret = secrets.find((candidate) => candidate.id === due.id);
      if (!secret || !isDue(secret, nowMs)) return null;
      const after: SecretRecord = { ...secret, closedAt: secret.closesAt, closedReason: 'overlap_ended' };
      closed = true;
      return {
        key: fresh,
        secrets: [after],
        action: 'key.secret_closed',
        before: { secrets: [snapshotSecret(secret)] },
        after: { secrets: [snapshotSecret(after)] },
        details: { secretId: secret.id, reason: 'overlap_ended' },
      };
    });
    if (closed) count++;
  }
  return count;
}

/** One `key.expiry_reminder` per lead time the key entered without a reminder; returns how many it wrote. */
async function writeReminders(ctx: ServiceContext, key: ApiKey, nowMs: number): Promise<number> {
  const deps = { ...ctx, clock: () => nowMs };
  let count = 0;
  for (const leadDays of enteredLeads(ctx, key, nowMs)) {
    let written = false;
    await applyChange(deps, key.id, SYSTEM, ({ key: fresh }) => {
      written = false;
      if (fresh.status !== 'active' || !enteredLeads(ctx, fresh, nowMs).includes(leadDays)) return null;
      const reminder = expiryReminder(fresh, nowMs, leadDays)!;
      const remindersSent = [...fresh.remindersSent, leadDays].sort((a, b) => b - a);
      written = true;
      return {
        key: { ...fresh, remindersSent },
        secrets: [],
        action: 'key.expiry_reminder',
        before: { remindersSent: fresh.remindersSent },
        after: { remindersSent },
        details: { leadDays, daysLeft: reminder.daysLeft, expiresAt: reminder.expiresAt },
      };
    });
    if (written) count++;
  }
  return count;
}

/** Lead times (largest first) whose window the key has entered (and not left by expiring) without a reminder yet. */
function enteredLeads(ctx: ServiceContext, key: ApiKey, nowMs: number): number[] {
  return ctx.config.expiryReminderDays.filter(
    (lead) => !key.remindersSent.includes(lead) && expiryReminder(key, nowMs, lead) !== null,
  );
}
