import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createIdentitySigner } from '@keygate/identity';
import { collectDefaultMetrics } from 'prom-client';
import { createApp } from './app.ts';
import { type GatewayConfig, loadConfig } from './config.ts';
import { createLogger } from './http/logger.ts';
import { loadIdentityKey } from './identity/identity-key.ts';
import { createLocalKeyEvents } from './keys/events.ts';
import { createArgon2Hasher } from './keys/hasher.ts';
import { createKeyService } from './keys/key-service.ts';
import { startSweeper } from './keys/sweeper.ts';
import { openSqliteKeyStore } from './store/sqlite.ts';

const SWEEP_INTERVAL_MS = 60_000;
const SHUTDOWN_GRACE_MS = 10_000;

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

function readConfig(): Readonly<GatewayConfig> {
  let config: Readonly<GatewayConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    fail(`config error: ${(error as Error).message}`);
  }
  if (config.redisUrl) {
    fail(
      'config error: REDIS_URL is set, but the Redis backend arrives with the scale-out work; unset it to run on the SQLite store',
    );
  }
  return config;
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  await mkdir(config.dataDir, { recursive: true });
  const store = openSqliteKeyStore(config.databaseFile);
  const privateJwk = await loadIdentityKey({
    privateJwk: config.identityPrivateJwk,
    keyFile: config.identityKeyFile,
  });
  const signer = await createIdentitySigner({ privateJwk });
  const hasher = createArgon2Hasher();
  const events = createLocalKeyEvents();
  const keyService = createKeyService({
    store,
    hasher,
    events,
    clock: Date.now,
    config: {
      defaultRateLimitPerMinute: config.defaultRateLimitPerMinute,
      maxOverlapDays: config.maxOverlapDays,
      expiryReminderDays: config.expiryReminderDays,
    },
  });
  const gateway = createApp({ config, store, hasher, events, signer, keyService, logger });
  collectDefaultMetrics({ register: gateway.metrics.registry });
  gateway.recorder.start();
  const stopSweeper = startSweeper({
    sweep: () => keyService.sweep(),
    intervalMs: SWEEP_INTERVAL_MS,
    onError: (error) => logger.error({ err: error }, 'key sweep failed'),
  });

  const server = gateway.app.listen(config.port, config.host);
  server.on('error', (error) =>
    fail(`gateway error: cannot listen on ${config.host}:${config.port} (${error.message})`),
  );
  server.on('listening', () => {
    const { port } = server.address() as AddressInfo;
    logger.info(`keygate gateway listening on http://${config.host}:${port}`);
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    stopSweeper();
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await gateway.close();
    await store.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

await main().catch((error: unknown) => fail(`gateway error: ${(error as Error).message}`));
