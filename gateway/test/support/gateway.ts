import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentityKeyPair } from '@keygate/identity';
import type { JWK } from 'jose';
import { createApp, type GatewayApp } from '../../src/app.ts';
import { createMemoryLedger, type StoredOperation } from '../../src/budget/memory-ledger.ts';
import { loadConfig } from '../../src/config.ts';
import { createGatewayIdentitySigner, type SyncIdentitySigner } from '../../src/identity/identity-signer.ts';
import { createKeyService } from '../../src/keys/key-service.ts';
import { createLocalKeyEvents, type KeyEvents } from '../../src/model/events.ts';
import { type CountingHasher, createCountingHasher } from './counting-hasher.ts';
import { createMemoryStore, type MemoryStore } from './memory-store.ts';
import { startEchoUpstream, type TestUpstream } from './upstream.ts';

/** Writes a route table to a fresh temp file and returns its path. */
function writeRouteTable(table: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'keygate-routes-')), 'routes.json');
  writeFileSync(file, JSON.stringify(table));
  return file;
}

/** A settable clock; starts at 2026-01-15T12:00:00Z. */
export interface TestClock {
  now: number;
  (): number;
}

export function createTestClock(start = Date.parse('2026-01-15T12:00:00.000Z')): TestClock {
  const clock = (() => clock.now) as TestClock;
  clock.now = start;
  return clock;
}

export interface TestGateway extends GatewayApp {
  store: MemoryStore;
  hasher: CountingHasher;
  events: KeyEvents;
  clock: TestClock;
  /** The gateway's own signer: inline, or its worker with other calls in flight; `close` ends the worker. */
  signer: SyncIdentitySigner;
  publicJwks: { keys: JWK[] };
  live: TestUpstream;
  test: TestUpstream;
  stop(): Promise<void>;
}

export interface TestGatewayOptions {
  env?: Record<string, string>;
  keysRouter?: Parameters<typeof createApp>[0]['keysRouter'];
  logger?: Parameters<typeof createApp>[0]['logger'];
  /** Replaces the echo upstreams' URLs (e.g. with a closed port). */
  upstreamUrls?: { live?: string; test?: string };
  /** A route table (given the echo upstreams' URLs) written to a temp file used as KEYGATE_ROUTES_FILE. */
  routeTable?: (urls: { live: string; test: string }) => unknown;
  /** Replaces the counting hasher (e.g. one whose verifications can be held). */
  hasher?: CountingHasher;
  /** Replaces the plain memory store (e.g. a versioned one, behaving like Redis). */
  store?: MemoryStore;
  rateLimiter?: Parameters<typeof createApp>[0]['rateLimiter'];
  /** Plans, quotas and credits, given the gateway's clock. */
  budgets?: (clock: TestClock) => Parameters<typeof createApp>[0]['budgets'];
  meter?: Parameters<typeof createApp>[0]['meter'];
  budgetUsage?: Parameters<typeof createApp>[0]['budgetUsage'];
  /** Serves the analytics routes from this store. */
  usage?: Parameters<typeof createApp>[0]['usage'];
}

/**
 * The in-process ledger on the memory store: it reads the starting balances the store wrote with
 * a key or an identity (as the SQLite storage reads credit_balances), and keeps the rest in memory.
 */
function memoryStoreLedger(store: MemoryStore) {
  const operations = new Map<string, StoredOperation>();
  return createMemoryLedger({
    storage: {
      load: (subject) => ({ counters: [], credits: store.balances.get(subject) ?? null }),
      save: (_counters, credits, done = []) => {
        for (const { subject, state } of credits) store.balances.set(subject, { ...state });
        for (const operation of done) operations.set(operation.id, operation);
      },
      findOperation: (id, nowMs) => {
        const operation = operations.get(id);
        return operation && operation.expiresAt > nowMs ? operation.state : null;
      },
      prune: () => {},
    },
    flushIntervalMs: 3_600_000,
  });
}

/**
 * The gateway built with createApp (and the gateway's own identity signer) against the in-memory store, a counting hasher, local key
 * events, a settable clock and two real echo upstreams (live and test) on port 0.
 */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const [live, test] = await Promise.all([startEchoUpstream('live'), startEchoUpstream('test')]);
  const urls = { live: options.upstreamUrls?.live ?? live.url, test: options.upstreamUrls?.test ?? test.url };
  const config = loadConfig({
    KEYGATE_DATA_DIR: '/tmp/keygate-test-unused',
    KEYGATE_UPSTREAM_LIVE: urls.live,
    KEYGATE_UPSTREAM_TEST: urls.test,
    ...(options.routeTable ? { KEYGATE_ROUTES_FILE: writeRouteTable(options.routeTable(urls)) } : {}),
    ...options.env,
  });
  const { privateJwk, publicJwk } = await generateIdentityKeyPair();
  const clock = createTestClock();
  // The signer main.ts runs (inline, or in its signing worker with other requests in flight), so
  // the data plane is tested as it runs; `stop` terminates its worker.
  const signer = createGatewayIdentitySigner({ privateJwk, ttlSeconds: config.identityTtlSeconds });
  const store = options.store ?? createMemoryStore();
  const hasher = options.hasher ?? createCountingHasher();
  const events = createLocalKeyEvents();
  const gateway = createApp({
    config,
    store,
    hasher,
    events,
    signer,
    clock,
    keysRouter: options.keysRouter,
    logger: options.logger,
    rateLimiter: options.rateLimiter,
    budgets: options.budgets?.(clock),
    ledger: memoryStoreLedger(store),
    meter: options.meter,
    budgetUsage: options.budgetUsage,
    usage: options.usage,
    // The analytics routes read a key through the key service, as the keys API does.
    keyService: options.usage ? createKeyService({ store, hasher, events, clock }) : undefined,
  });
  return {
    ...gateway,
    store,
    hasher,
    events,
    clock,
    signer,
    publicJwks: { keys: [publicJwk] },
    live,
    test,
    async stop() {
      await gateway.close();
      await Promise.all([live.close(), test.close(), signer.close()]);
    },
  };
}
