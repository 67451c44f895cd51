import type { Cluster } from 'ioredis';
import type { BudgetEventListener, KeyEventListener, KeyEvents } from '../../model/events.ts';
import {
  closeRedis,
  connectRedis,
  createRedisClient,
  DEFAULT_KEY_PREFIX,
  type RedisClient,
  type RedisConnectionOptions,
} from './connection.ts';
import {
  createKeyNames,
  createOrigin,
  decodeBudgetInvalidation,
  decodeInvalidation,
  decodeSecretLookups,
  encodeBudgetInvalidation,
  encodeInvalidation,
} from './keys.ts';
import { onClusterFailover } from './redis-store.ts';
import { type InvalidationSubscriber, openInvalidationSubscriber } from './subscriber.ts';
import { isClusterTarget, type RedisTarget } from './target.ts';

/** Key events shared by every gateway instance on one Redis. */
export interface RedisKeyEvents extends KeyEvents {
  /**
   * Registers a listener for "messages may have been lost": called after the subscriber
   * reconnected and subscribed again. Listeners drop every cached key. Returns an unsubscribe.
   */
  onReset(listener: () => void): () => void;
  /** Registers a listener for "the subscriber lost its connection"; returns an unsubscribe. */
  onLost(listener: () => void): () => void;
  /** Stops the subscriber and closes the connections this object opened. */
  close(): Promise<void>;
}

export interface RedisKeyEventsOptions extends RedisConnectionOptions {
  /** Must match the key store's prefix: the channel is `<prefix>invalidate`. Default `keygate:`. */
  keyPrefix?: string;
  /** Publish through this connection (e.g. the store's `client`) instead of opening one; `close()` leaves it open. */
  publisher?: RedisClient;
}

/**
 * Key events over Redis pub/sub. `publish` runs local listeners synchronously (this instance is
 * consistent at once) and publishes on `<prefix>invalidate`; a dedicated subscriber delivers the
 * messages of other instances, and of Redis key store commits, to local listeners. Publishing is
 * fire-and-forget: if Redis is down the failure is logged (the commit itself could not have
 * happened then, and other instances flush everything when their subscribers reconnect).
 * Opening rejects if Redis does not answer within `connectTimeoutMs`.
 */
export async function createRedisKeyEvents(
  url: RedisTarget,
  options: RedisKeyEventsOptions = {},
): Promise<RedisKeyEvents> {
  const { channel } = createKeyNames(options.keyPrefix ?? DEFAULT_KEY_PREFIX);
  const origin = createOrigin();
  const listeners = new Set<KeyEventListener>();
  const budgetListeners = new Set<BudgetEventListener>();
  const resetListeners = new Set<() => void>();
  const lostListeners = new Set<() => void>();
  const logger = options.logger;
  const notify = <T, U>(set: Set<(value: T, more?: U) => void>, value: T, more?: U) => {
    for (const listener of set) {
      try {
        listener(value, more);
      } catch (error) {
        logger?.warn({ err: error }, 'key event listener failed');
      }
    }
  };
  const publisher = options.publisher ?? createRedisClient(url, 'events-publisher', options);
  if (!options.publisher) await connectRedis(publisher, options.connectTimeoutMs);
  let subscriber: InvalidationSubscriber;
  try {
    subscriber = await openInvalidationSubscriber(url, {
      ...options,
      role: 'events-subscriber',
      channel,
      onMessage(message) {
        const invalidation = decodeInvalidation(message);
        if (invalidation && invalidation.origin !== origin) notify(listeners, invalidation.keyId);
        // Sent by commits (the store's origin, never this object's), so none is an echo.
        const secrets = invalidation ? null : decodeSecretLookups(message);
        if (secrets) notify(listeners, secrets.keyId, secrets.lookups);
        // From the store's scripts (atomic with the write) and from other instances' publishBudget.
        const budget = invalidation || secrets ? null : decodeBudgetInvalidation(message);
        if (budget && budget.origin !== origin) notify(budgetListeners, { kind: budget.kind, id: budget.id });
      },
      onResubscribed() {
        notify(resetListeners, undefined);
      },
      onLost() {
        notify(lostListeners, undefined);
      },
    });
  } catch (error) {
    if (!options.publisher) await closeRedis(publisher);
    throw error;
  }
  if (isClusterTarget(url)) onClusterFailover(publisher as Cluster, () => notify(resetListeners, undefined));
  // Callers of settle() waiting for the next PING. It is sent from setImmediate, after the poll
  // phase in which they were called, so after every request they handle had arrived; one PING
  // answers all of them, so a flood of refusals costs one round trip per turn, not one each.
  let settling: PromiseWithResolvers<void>[] | null = null;
  const sendPing = () => {
    const waiting = settling ?? [];
    settling = null;
    subscriber.ping().then(
      () => {
        for (const waiter of waiting) waiter.resolve();
      },
      (error: unknown) => {
        for (const waiter of waiting) waiter.reject(error);
      },
    );
  };
  return {
    publish(keyId, lookups) {
      // The lookups travel in the commit's own `secrets` message (see commitArgs), not here.
      publisher
        .publish(channel, encodeInvalidation({ kind: 'event', origin, keyId }))
        .catch((error: Error) => logger?.warn({ err: error, keyId }, 'key event not published'));
      for (const listener of listeners) listener(keyId, lookups);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publishBudget(change) {
      publisher
        .publish(channel, encodeBudgetInvalidation({ kind: change.kind, origin, id: change.id }))
        .catch((error: Error) => logger?.warn({ err: error, ...change }, 'budget event not published'));
      for (const listener of budgetListeners) listener(change);
    },
    subscribeBudget(listener) {
      budgetListeners.add(listener);
      return () => budgetListeners.delete(listener);
    },
    settle() {
      if (!settling) {
        settling = [];
        setImmediate(sendPing);
      }
      const waiter = Promise.withResolvers<void>();
      settling.push(waiter);
      return waiter.promise;
    },
    onReset(listener) {
      resetListeners.add(listener);
      return () => resetListeners.delete(listener);
    },
    onLost(listener) {
      lostListeners.add(listener);
      return () => lostListeners.delete(listener);
    },
    async close() {
      listeners.clear();
      budgetListeners.clear();
      resetListeners.clear();
      lostListeners.clear();
      await Promise.all([subscriber.close(), options.publisher ? undefined : closeRedis(publisher)]);
    },
  };
}
