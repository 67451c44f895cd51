import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayError } from '../../../src/errors.ts';
import type { SecretHasher } from '../../../src/keys/hasher.ts';
import type { CreateKeyRequest, KeyService, KeyServiceConfig } from '../../../src/keys/key-service.ts';
import { createKeyService } from '../../../src/keys/key-service.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import type { Actor } from '../../../src/model/model.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import type { KeyStore } from '../../../src/store/store.ts';

export const ADMIN: Actor = { type: 'admin', id: 'alice' };
export const FROM_CLI = { sourceIp: null };
export const FROM_IP = { sourceIp: '198.51.100.4' };
export const DAY = 86_400_000;
export const HOUR = 3_600_000;

/** A fast stand-in for argon2: SHA-256, so tests create many keys quickly. */
export const fakeHasher: SecretHasher = {
  hash: async (secret) => `fake$${createHash('sha256').update(secret).digest('hex')}`,
  verify: async (hash, secret) => hash === `fake$${createHash('sha256').update(secret).digest('hex')}`,
};

/** A clock tests move by hand. */
export interface TestClock {
  (): number;
  set(iso: string): void;
  advance(ms: number): void;
}

export function createTestClock(startIso = '2025-03-01T12:00:00.000Z'): TestClock {
  let now = Date.parse(startIso);
  const clock = (() => now) as TestClock;
  clock.set = (iso) => {
    now = Date.parse(iso);
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

/** A key service on a fresh SQLite file, with a hand-moved clock and a record of published key ids. */
export interface Harness {
  service: KeyService;
  store: KeyStore;
  clock: TestClock;
  file: string;
  published: string[];
  /** Creates a key as administrator; returns its id, public view and token. */
  adminCreate(input: Partial<CreateKeyRequest>): ReturnType<KeyService['createKey']>;
  /** The actor for a key id. */
  asKey(id: string): Actor;
  /** Another key service (own clock reading the same time) on the same file, as a second instance. */
  openPeerService(): { service: KeyService; store: KeyStore };
  cleanup(): Promise<void>;
}

export function createHarness(config: Partial<KeyServiceConfig> = {}): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-keys-'));
  const file = join(dir, 'gateway.db');
  const store = openSqliteKeyStore(file);
  const clock = createTestClock();
  const events = createLocalKeyEvents();
  const published: string[] = [];
  events.subscribe((keyId) => published.push(keyId));
  const service = createKeyService({ store, hasher: fakeHasher, events, clock, config });
  const peers: KeyStore[] = [];
  return {
    service,
    store,
    clock,
    file,
    published,
    adminCreate: (input) =>
      service.createKey(ADMIN, { name: 'k', environment: 'live', scopes: ['article:r'], ...input }, FROM_CLI),
    asKey: (id) => ({ type: 'key', id }),
    openPeerService() {
      const peerStore = openSqliteKeyStore(file);
      peers.push(peerStore);
      const peer = createKeyService({
        store: peerStore,
        hasher: fakeHasher,
        events: createLocalKeyEvents(),
        clock,
        config,
      });
      return { service: peer, store: peerStore };
    },
    async cleanup() {
      for (const peer of peers) await peer.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts that `promise` rejects with a GatewayError of this code (and `rule`, if given); returns it. */
export async function rejectsWith(
  promise: Promise<unknown>,
  code: string,
  rule?: string,
): Promise<GatewayError> {
  let caught: unknown;
  await assert.rejects(promise, (error: unknown) => {
    caught = error;
    return (
      error instanceof GatewayError &&
      error.code === code &&
      (rule === undefined || error.extensions.rule === rule)
    );
  });
  return caught as GatewayError;
}
