import type { AlertEventType } from '@keygate/contracts/gateway';
import type { Logger } from 'pino';
import type { NewAlertEvent } from '../model/alert-store.ts';
import { expiryEndMs } from '../model/lifecycle.ts';
import type { ActivityAction, ActivityEntry, ApiKey, KeyChange } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import type { AlertOutbox } from './alert-outbox.ts';

/** Activity actions that are alert events of the same name. */
const SAME_NAME: Partial<Record<ActivityAction, AlertEventType>> = {
  'key.created': 'key.created',
  'key.rotated': 'key.rotated',
  'key.secret_closed': 'key.secret_closed',
  'key.revoked': 'key.revoked',
  'key.scopes_changed': 'key.scopes_changed',
};

/** The alert data of a key change: which key, who changed it, and the entry's own secret-free before/after. */
function keyData(activity: ActivityEntry, key: ApiKey): Record<string, unknown> {
  return {
    keyId: key.id,
    keyName: key.name,
    identityId: key.identityId ?? null,
    activityId: activity.id,
    actor: activity.actor,
    at: activity.at,
    before: activity.before,
    after: activity.after,
    details: activity.details,
  };
}

/**
 * The alert events of one key change: the lifecycle events by name, and for an expiry reminder
 * `key.expiring` plus `key.expired`, scheduled for the end of the key's last day. Each is keyed by
 * its activity entry, so recording it again (a retry) changes nothing.
 */
export function keyAlertEvents(outbox: Pick<AlertOutbox, 'build'>, change: KeyChange): NewAlertEvent[] {
  const { activity, key } = change;
  const subject = { environment: key.environment, identityId: key.identityId ?? null };
  const type = SAME_NAME[activity.action];
  if (type) {
    return [outbox.build(type, keyData(activity, key), { ...subject, dedupeKey: `activity:${activity.id}` })];
  }
  if (activity.action !== 'key.expiry_reminder' || key.expiresAt === null) return [];
  const base = {
    keyId: key.id,
    keyName: key.name,
    identityId: key.identityId ?? null,
    expiresAt: key.expiresAt,
  };
  return [
    outbox.build(
      'key.expiring',
      { ...base, daysLeft: activity.details.daysLeft, leadDays: activity.details.leadDays },
      { ...subject, dedupeKey: `activity:${activity.id}` },
    ),
    outbox.build('key.expired', base, {
      ...subject,
      dedupeKey: `key.expired:${key.id}:${key.expiresAt}`,
      deliverAt: expiryEndMs(key.expiresAt),
    }),
  ];
}

/**
 * The store with every key change carrying its alert events, which the store records with the
 * change itself (KeyChange.alerts): a change commits with its alerts or not at all. After a commit
 * the events are relayed on (a store that parks them near the key, Redis, moves them to the outbox;
 * a failure there is logged, and the alert worker's next relay moves them) and the worker is woken.
 */
export function withKeyAlerts(store: KeyStore, outbox: AlertOutbox, logger: Pick<Logger, 'error'>): KeyStore {
  const commitChange = async (change: KeyChange): Promise<boolean> => {
    const alerts = keyAlertEvents(outbox, change);
    const committed = await store.commitChange(alerts.length > 0 ? { ...change, alerts } : change);
    if (committed && alerts.length > 0) {
      try {
        await store.relayAlerts?.(change.key.id);
      } catch (error) {
        logger.error({ err: error, activityId: change.activity.id }, 'alert of a key change not relayed yet');
      }
      outbox.notify();
    }
    return committed;
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'commitChange') return commitChange;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
