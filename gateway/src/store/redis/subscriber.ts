import type { Redis } from 'ioredis';
import { closeRedis, connectRedis, createRedisClient, type RedisConnectionOptions } from './connection.ts';
import { isClusterTarget, type RedisTarget } from './target.ts';

export interface InvalidationSubscriberOptions extends RedisConnectionOptions {
  /** Connection name suffix (`keygate-<role>`). */
  role: string;
  channel: string;
  /** Every message on the channel. Must not throw. */
  onMessage(message: string): void;
  /** The connection came back and is subscribed again: messages sent meanwhile are lost. */
  onResubscribed(): void;
  /** The connection was lost (once per loss): messages sent from now on are lost until `onResubscribed`. */
  onLost?(): void;
}

export interface InvalidationSubscriber {
  /**
   * Resolves once every connection has answered a PING sent now: Redis answers on the connection
   * in order, so every message published before the PING has been handed to `onMessage` by then.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A dedicated subscriber connection on one channel. Pub/sub delivers at most once, so after any
 * reconnect it subscribes again itself (not ioredis' autoResubscribe) and only once Redis has
 * confirmed the subscription calls `onResubscribed`: a cache flushed then cannot miss a change.
 * Behind Sentinel the reconnect after a failover goes to the new master, so a failover flushes
 * caches like any reconnect.
 *
 * On a Cluster, PUBLISH (from the commit script too) reaches the subscribers of every node, so one
 * subscriber connection per seed node listens: a master failing leaves the others listening, and
 * its own connection flushes caches when it is back. A message arriving twice only flushes twice.
 */
export async function openInvalidationSubscriber(
  target: RedisTarget,
  options: InvalidationSubscriberOptions,
): Promise<InvalidationSubscriber> {
  if (!isClusterTarget(target)) return openOne(target, options);
  const opened = await Promise.allSettled(
    target.clusterNodes.map((node) => openOne(`redis://${node.host}:${node.port}`, options)),
  );
  const subscribers = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (subscribers.length === 0) {
    const failed = opened.find((result) => result.status === 'rejected');
    throw (failed as PromiseRejectedResult).reason;
  }
  return {
    async ping() {
      await Promise.all(subscribers.map((subscriber) => subscriber.ping()));
    },
    async close() {
      await Promise.all(subscribers.map((subscriber) => subscriber.close()));
    },
  };
}

async function openOne(
  target: Exclude<RedisTarget, { clusterNodes: unknown }>,
  options: InvalidationSubscriberOptions,
): Promise<InvalidationSubscriber> {
  const client = createRedisClient(target, options.role, options, { autoResubscribe: false }) as Redis;
  let opened = false;
  let lost = false;
  client.on('close', () => {
    if (!opened || lost) return;
    lost = true;
    options.onLost?.();
  });
  client.on('message', (channel: string, message: string) => {
    if (channel === options.channel) options.onMessage(message);
  });
  client.on('ready', () => {
    if (!opened) return;
    client.subscribe(options.channel).then(
      () => {
        lost = false;
        options.onResubscribed();
      },
      (error: Error) => {
        options.logger?.warn({ err: error, role: options.role }, 'redis resubscribe failed; reconnecting');
        if (client.status === 'ready') client.disconnect(true);
      },
    );
  });
  await connectRedis(client, options.connectTimeoutMs);
  try {
    await client.subscribe(options.channel);
  } catch (error) {
    client.disconnect();
    throw error;
  }
  opened = true;
  return {
    async ping() {
      await client.ping();
    },
    async close() {
      opened = false;
      await closeRedis(client);
    },
  };
}
