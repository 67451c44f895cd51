import { createMemoryLedger } from '../budget/memory-ledger.ts';
import { createLocalKeyEvents } from '../model/events.ts';
import type { BackendOptions, GatewayBackend, OpenedStore } from './backend.ts';
import { openSqliteKeyStore } from './sqlite/sqlite-store.ts';

/**
 * The Redis half, loaded only when Redis is configured: its client library and scripts are a fair
 * share of an idle instance's heap, which a SQLite instance would carry for nothing.
 */
const loadRedisBackend = () => import('./redis/open-redis-backend.ts');

/** Opens the store alone (the CLI): SQLite, or Redis with fail-fast connections. */
export async function openStore(options: BackendOptions): Promise<OpenedStore> {
  if (!options.redisUrl) {
    const store = openSqliteKeyStore(options.databaseFile);
    return { store, alerts: store.alertStorage, close: () => store.close() };
  }
  return (await loadRedisBackend()).openRedisStore(options.redisUrl, options);
}

/**
 * Opens what one gateway instance needs. SQLite: the file store and in-process events. Redis: the
 * store, key events over pub/sub publishing through the store's connection, and the shared rate
 * limiter on that same connection, so a key's version read and its rate-limit command share one
 * auto-pipelined round trip. Rejects if Redis does not answer within the connect timeout.
 */
export async function openGatewayBackend(options: BackendOptions): Promise<GatewayBackend> {
  if (!options.redisUrl) {
    const store = openSqliteKeyStore(options.databaseFile);
    const ledger = createMemoryLedger({ storage: store.budgetStorage.ledger });
    return {
      store,
      events: createLocalKeyEvents(),
      ledger,
      budgetUsage: store.budgetStorage.usage,
      alerts: store.alertStorage,
      async close() {
        // What the ledger holds is written before the file closes.
        ledger.close();
        await store.close();
      },
    };
  }
  return (await loadRedisBackend()).openRedisGatewayBackend(options.redisUrl, options);
}
