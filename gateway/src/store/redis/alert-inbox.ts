import type { AlertStore, NewAlertEvent } from '../../model/alert-store.ts';
import type { RedisStoreContext } from './writes.ts';

/**
 * Moves the alert events key commits parked in a group's inbox (`alerts-inbox`, written by the
 * commit script with the change) into the outbox, which lives in the admin group: on a Cluster no
 * script can write both. Each event is recorded once by its dedupe key, so two instances relaying
 * the same inbox, or a relay retried after a crash, record it once; it leaves the inbox only after
 * the outbox holds it. With `keyId`, the inbox of that key's group; otherwise every group's.
 * Returns how many events left the inboxes.
 */
export async function relayAlertInboxes(
  ctx: RedisStoreContext,
  outbox: Pick<AlertStore, 'recordEvent'>,
  keyId?: string,
): Promise<number> {
  const groups = keyId === undefined ? ctx.layout.groups : [ctx.layout.forKey(keyId)];
  let moved = 0;
  for (const names of groups) {
    const parked = Object.values(await ctx.client.hgetall(names.alertInbox)).map(
      (json) => JSON.parse(json) as NewAlertEvent,
    );
    parked.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    for (const event of parked) {
      await outbox.recordEvent(event);
      moved += await ctx.client.hdel(names.alertInbox, event.id);
    }
  }
  return moved;
}
