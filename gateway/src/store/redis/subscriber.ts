import { closeRedis, connectRedis, createRedisClient, type RedisConnectionOptions } from './connection.ts';

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

/**
 * A dedicated subscriber connection on one channel. Pub/sub delivers at most once, so after any
 * reconnect it subscribes again itself (not ioredis' autoResubscribe) and only once Redis has
 * confirmed the subscription calls `onResubscribed`: a cache flushed then cannot miss a change.
 */
export async function openInvalidationSubscriber(
  url: string,
  options: InvalidationSubscriberOptions,
): Promise<{ close(): Promise<void> }> {
  const client = createRedisClient(url, options.role, options, { autoResubscribe: false });
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
    async close() {
      opened = false;
      await closeRedis(client);
    },
  };
}
