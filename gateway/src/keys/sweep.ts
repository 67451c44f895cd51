import { applyChange, type ChangeOrigin } from './change-runner.ts';
import { expiryReminder } from './lifecycle.ts';
import type { ApiKey, SecretRecord } from './model.ts';
import { snapshotSecret } from './public-key.ts';
import type { ServiceContext } from './service-context.ts';

const SYSTEM: ChangeOrigin = { actor: { type: 'system', id: 'keygate' }, sourceIp: null };

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
 *   `key.secret_closed` with `{secretId, reason: 'overlap_ended'}`;
 * - for each active key inside a reminder lead time not yet reminded, logs one `key.expiry_reminder`
 *   with the smallest lead entered (`{leadDays, daysLeft, expiresAt}`) and marks every lead entered.
 * Nothing on the request path depends on this: the data plane checks closesAt and expiry itself.
 * Every key is attempted; failures are thrown together at the end as an AggregateError.
 */
export async function sweep(ctx: ServiceContext, nowMs: number = ctx.clock()): Promise<SweepResult> {
  const result: SweepResult = { secretsClosed: 0, remindersWritten: 0 };
  const failures: unknown[] = [];
  for (const key of await ctx.store.listKeys({ status: 'active' })) {
    try {
      await sweepKey(ctx, key, nowMs, result);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `sweep failed for ${failures.length} key(s)`);
  return result;
}

async function sweepKey(ctx: ServiceContext, key: ApiKey, nowMs: number, result: SweepResult): Promise<void> {
  const deps = { ...ctx, clock: () => nowMs };
  for (const due of (await ctx.store.listSecrets(key.id)).filter((secret) => isDue(secret, nowMs))) {
    let closed = false;
    await applyChange(deps, key.id, SYSTEM, ({ key: fresh, secrets }) => {
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
    if (closed) result.secretsClosed++;
  }
  if (enteredLeads(ctx, key, nowMs).length === 0) return;
  let written = false;
  await applyChange(deps, key.id, SYSTEM, ({ key: fresh }) => {
    written = false;
    const entered = enteredLeads(ctx, fresh, nowMs);
    if (fresh.status !== 'active' || entered.length === 0) return null;
    const leadDays = Math.min(...entered);
    const reminder = expiryReminder(fresh, nowMs, leadDays)!;
    const remindersSent = [...fresh.remindersSent, ...entered].sort((a, b) => b - a);
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
  if (written) result.remindersWritten++;
}

/** Lead times whose window the key has entered (and not left by expiring) without a reminder yet. */
function enteredLeads(ctx: ServiceContext, key: ApiKey, nowMs: number): number[] {
  return ctx.config.expiryReminderDays.filter(
    (lead) => !key.remindersSent.includes(lead) && expiryReminder(key, nowMs, lead) !== null,
  );
}
