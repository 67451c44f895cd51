import { QUOTA_THRESHOLDS } from '@keygate/contracts/gateway';
import type { Logger } from 'pino';
import type { BudgetVerdict } from '../budget/decide.ts';
import type { BudgetPolicy } from '../budget/policy.ts';
import type { ApiKey } from '../model/model.ts';
import type { AlertOutbox, AlertSubject } from './alert-outbox.ts';

const HOUR_MS = 3_600_000;

/** How many sent dedupe keys an instance remembers before it forgets the oldest half. */
const REMEMBERED = 20_000;

/** The data plane's side of alerts: sees every budget verdict and refusal, records crossings. */
export interface BudgetAlerts {
  /** A call's budget was decided (allowed or refused). Synchronous and cheap: no store round trip. */
  onBudget(key: ApiKey, policy: BudgetPolicy, verdict: BudgetVerdict): void;
  /** A call of the key was refused for a rate limit (its own per-minute one or a plan's). */
  onRateLimited(key: ApiKey, nowMs: number): void;
}

/** Who an alert is about: the key, and the key or identity whose budget crossed a line. */
const about = (key: ApiKey, subject: string) => ({
  keyId: key.id,
  identityId: key.identityId ?? null,
  subject: { type: subject === key.id ? 'key' : 'identity', id: subject },
});

/** The environment and identity an alert of the key is filed under. */
const baseOf = (key: ApiKey) => ({ environment: key.environment, identityId: key.identityId ?? null });

/**
 * Detects `quota.threshold`, `credits.low`, `credits.exhausted` and `key.rate_limited` in memory:
 * each crossing has a deterministic dedupe key (`quota.threshold:<subject>:<period>:<start>:<80|100>`,
 * `credits.low:<subject>:<refilled at>`, `key.rate_limited:<key>:<hour start>`…), remembered here
 * once recorded so the next calls cost a set lookup, and recorded fire-and-forget: the store keeps
 * one event per dedupe key however many instances saw the crossing at once.
 */
export function createBudgetAlerts(deps: { outbox: AlertOutbox; logger: Logger }): BudgetAlerts {
  const sent = new Set<string>();

  function raise(
    type: Parameters<AlertOutbox['record']>[0],
    data: Record<string, unknown>,
    subject: AlertSubject,
  ) {
    if (sent.has(subject.dedupeKey)) return;
    if (sent.size >= REMEMBERED) {
      // Forgetting only costs a store call that the dedupe key turns into a no-op.
      let n = 0;
      for (const key of sent) if (n++ < REMEMBERED / 2) sent.delete(key);
    }
    sent.add(subject.dedupeKey);
    deps.outbox.record(type, data, subject).catch((error: unknown) => {
      sent.delete(subject.dedupeKey);
      deps.logger.error({ err: error, type }, 'alert not recorded; the next call tries again');
    });
  }

  return {
    onBudget(key, policy, verdict) {
      for (let i = 0; i < policy.lines.length; i++) {
        const line = policy.lines[i]!;
        if (line.kind !== 'quota') continue;
        const used = verdict.used[i] ?? 0;
        const refused = verdict.refusal?.code === 'QUOTA_EXCEEDED' && verdict.refusal.line === i;
        const window = verdict.windows[i]!;
        for (const threshold of QUOTA_THRESHOLDS) {
          if (!refused && used * 100 < line.limit * threshold) continue;
          raise(
            'quota.threshold',
            {
              ...about(key, line.subject),
              period: line.window,
              limit: line.limit,
              used,
              threshold,
              periodStart: new Date(window.start).toISOString(),
              periodEnd: new Date(window.end).toISOString(),
            },
            {
              ...baseOf(key),
              dedupeKey: `quota.threshold:${line.subject}:${line.window}:${window.start}:${threshold}`,
            },
          );
        }
      }
      const credits = verdict.credits;
      if (!policy.credits || !credits) return;
      const subject = policy.credits.subject;
      const exhausted = credits.remaining <= 0 || verdict.refusal?.code === 'CREDITS_EXHAUSTED';
      const lowAt = policy.credits.lowAt;
      if (lowAt !== undefined && credits.remaining < lowAt && !exhausted) {
        raise(
          'credits.low',
          { ...about(key, subject), remaining: credits.remaining, lowAt },
          { ...baseOf(key), dedupeKey: `credits.low:${subject}:${credits.refilledAt}:${lowAt}` },
        );
      }
      if (exhausted) {
        raise(
          'credits.exhausted',
          {
            ...about(key, subject),
            remaining: Math.max(0, credits.remaining),
            refillAt: verdict.refillAt === null ? null : new Date(verdict.refillAt).toISOString(),
          },
          { ...baseOf(key), dedupeKey: `credits.exhausted:${subject}:${credits.refilledAt}` },
        );
      }
    },
    onRateLimited(key, nowMs) {
      const hourStart = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
      raise(
        'key.rate_limited',
        {
          keyId: key.id,
          keyName: key.name,
          identityId: key.identityId ?? null,
          hourStart: new Date(hourStart).toISOString(),
        },
        {
          environment: key.environment,
          identityId: key.identityId ?? null,
          dedupeKey: `key.rate_limited:${key.id}:${hourStart}`,
        },
      );
    },
  };
}
