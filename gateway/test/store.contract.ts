import assert from 'node:assert/strict';
import type { AlertStore } from '../src/model/alert-store.ts';
import type {
  ActivityEntry,
  ApiKey,
  ApiLogEntry,
  Environment,
  KeyChange,
  SecretRecord,
  UsageBucket,
} from '../src/model/model.ts';
import { LATENCY_BUCKETS_MS } from '../src/model/model.ts';
import { InvalidCursorError } from '../src/store/cursor.ts';
import type { KeyStore } from '../src/store/store.ts';
import { describeAdminSessionContract } from './store-admin.contract.ts';
import { describeBudgetConfigContract } from './store-budget.contract.ts';
import { describeCommitCompanionsContract } from './store-commit.contract.ts';
import { describeIdempotencyContract } from './store-idempotency.contract.ts';
import { describeSweepCandidatesContract } from './store-sweep.contract.ts';

/** One backend under test: a fresh, empty store, a second connection to the same data, and cleanup. */
export interface StoreFixture {
  store: KeyStore;
  /** Opens another connection (SQLite: the same file; Redis: another client) to the same data. */
  openPeer(): Promise<KeyStore>;
  /** The alert outbox on the same data (key changes record their alerts into it). */
  alerts: AlertStore;
  cleanup(): Promise<void>;
}

export const T0 = Date.parse('2025-03-01T10:00:00.000Z');
export const iso = (offsetMs: number) => new Date(T0 + offsetMs).toISOString();
let counter = 0;
const uid = (prefix: string) => `${prefix}_${(++counter).toString().padStart(6, '0')}`;

export function makeKey(over: Partial<ApiKey> = {}): ApiKey {
  const id = over.id ?? uid('key');
  return {
    id,
    name: 'test key',
    environment: 'live',
    scopes: ['article:r', 'order:rw'],
    expiresAt: '2026-01-31',
    ipAllowlist: ['10.0.0.0/8', '2001:db8::/32'],
    rateLimit: { perMinute: 600 },
    prefix: `kg_live_${id.slice(-8)}`,
    status: 'active',
    revokedAt: null,
    remindersSent: [],
    createdAt: iso(0),
    updatedAt: iso(0),
    lastCallAt: null,
    version: 1,
    identityId: null,
    planId: null,
    limits: [],
    quotas: [],
    credits: null,
    ...over,
  };
}

export function makeSecret(keyId: string, over: Partial<SecretRecord> = {}): SecretRecord {
  const lookup = over.lookup ?? uid('lk').replace('_', '');
  return {
    id: uid('sec'),
    keyId,
    lookup,
    prefix: `kg_live_${lookup}`,
    hash: '$argon2id$v=19$m=19456,t=2,p=1$fake',
    tag: null,
    createdAt: iso(0),
    closesAt: null,
    closedAt: null,
    closedReason: null,
    callCount: 0,
    lastCallAt: null,
    ...over,
  };
}

export function makeActivity(key: ApiKey, over: Partial<ActivityEntry> = {}): ActivityEntry {
  return {
    id: uid('act'),
    keyId: key.id,
    environment: key.environment,
    action: 'key.created',
    actor: { type: 'admin', id: 'cli' },
    at: key.updatedAt,
    sourceIp: '203.0.113.7',
    before: null,
    after: { scopes: key.scopes },
    details: { note: 'x' },
    ...over,
  };
}

function histogram(entries: Record<number, number>): number[] {
  const out = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
  for (const [i, n] of Object.entries(entries)) out[Number(i)] = n;
  return out;
}

function bucket(
  key: ApiKey,
  secretId: string,
  minuteOffset: number,
  over: Partial<UsageBucket> = {},
): UsageBucket {
  return {
    keyId: key.id,
    secretId,
    minute: T0 + minuteOffset * 60_000,
    calls: 3,
    errors4xx: 1,
    errors5xx: 0,
    latencyMsSum: 30,
    latencyHistogram: histogram({ 6: 3 }),
    lastCallAt: iso(minuteOffset * 60_000 + 5_000),
    ...over,
  };
}

function logLine(
  key: ApiKey,
  secretId: string,
  offsetMs: number,
  over: Partial<ApiLogEntry> = {},
): ApiLogEntry {
  return {
    id: uid('req'),
    keyId: key.id,
    secretId,
    at: iso(offsetMs),
    method: 'GET',
    path: '/v2/catalog/products',
    status: 200,
    latencyMs: 12.5,
    clientIp: '203.0.113.7',
    ...over,
  };
}

/**
 * Polls `check` until it holds or `timeoutMs` passes. For effects that reach a store asynchronously
 * (Redis pub/sub); a synchronous backend passes on the first check.
 */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Creates a key with one secret; returns both. */
export async function seedKey(store: KeyStore, over: Partial<ApiKey> = {}) {
  const key = makeKey(over);
  const secret = makeSecret(key.id, { createdAt: key.createdAt });
  const change: KeyChange = { key, expectedVersion: null, secrets: [secret], activity: makeActivity(key) };
  assert.equal(await store.commitChange(change), true);
  return { key, secret };
}

/** An update of `key` to `next` (version + 1) with its activity entry. */
export function update(
  key: ApiKey,
  next: Partial<ApiKey>,
  secrets: SecretRecord[] = [],
  at = iso(60_000),
): KeyChange {
  const changed = { ...key, ...next, version: key.version + 1, updatedAt: at };
  return {
    key: changed,
    expectedVersion: key.version,
    secrets,
    activity: makeActivity(changed, { action: 'key.scopes_changed', at }),
  };
}

/**
 * The behaviour every KeyStore backend must show. `makeStore` gives a fresh, empty store per test.
 */
export function describeKeyStoreContract(name: string, makeStore: () => Promise<StoreFixture>): void {
  describe(`KeyStore contract: ${name}`, () => {
    let fixture: StoreFixture;
    let store: KeyStore;
    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    describe('keys and secrets', () => {
      it('stores a created key and its secret and reads them back', async () => {
        const { key, secret } = await seedKey(store);
        assert.deepEqual(await store.getKey(key.id), key);
        assert.deepEqual(await store.listSecrets(key.id), [secret]);
      });

      it('returns null for an unknown key and an unknown lookup', async () => {
        assert.equal(await store.getKey('key_missing'), null);
        assert.equal(await store.findByLookup('nolookup'), null);
        assert.deepEqual(await store.listSecrets('key_missing'), []);
      });

      it('refuses to create a key whose id exists', async () => {
        const { key } = await seedKey(store);
        const again = makeKey({ id: key.id, name: 'other' });
        const secret = makeSecret(key.id);
        const ok = await store.commitChange({
          key: again,
          expectedVersion: null,
          secrets: [secret],
          activity: makeActivity(again),
        });
        assert.equal(ok, false);
        assert.equal((await store.getKey(key.id))?.name, 'test key');
        assert.equal((await store.listSecrets(key.id)).length, 1);
      });

      it('finds a secret with its key by lookup', async () => {
        const { key, secret } = await seedKey(store);
        assert.deepEqual(await store.findByLookup(secret.lookup), { key, secret });
      });

      it('keeps a secret’s tag beside its hash, and sets one later for a secret stored without', async () => {
        const key = makeKey();
        const tagged = makeSecret(key.id, { tag: 'kid1.taggedmac' });
        const untagged = makeSecret(key.id, { createdAt: iso(1000) });
        await store.commitChange({
          key,
          expectedVersion: null,
          secrets: [tagged, untagged],
          activity: makeActivity(key),
        });
        assert.equal((await store.findByLookup(tagged.lookup))?.secret.tag, 'kid1.taggedmac');
        assert.equal((await store.findByLookup(untagged.lookup))?.secret.tag, null);
        await store.setSecretTag(untagged, 'kid1.latermac');
        await store.setSecretTag({ id: 'sec_missing', keyId: key.id }, 'kid1.nothing');
        assert.equal((await store.findByLookup(untagged.lookup))?.secret.tag, 'kid1.latermac');
        assert.deepEqual(
          (await store.listSecrets(key.id)).map((secret) => secret.tag),
          ['kid1.latermac', 'kid1.taggedmac'],
        );
        // A later change carrying the secret as it was read before (closing it) keeps the tag.
        const closed = { ...untagged, closedAt: iso(2000), closedReason: 'manual' as const };
        assert.equal(await store.commitChange(update(key, {}, [closed])), true);
        const after = await store.findByLookup(untagged.lookup);
        assert.equal(after?.secret.closedAt, iso(2000));
        assert.equal(after?.secret.tag, 'kid1.latermac');
      });

      it('lists keys newest first and filters by environment and status', async () => {
        const a = (await seedKey(store, { createdAt: iso(0), environment: 'live' })).key;
        const b = (await seedKey(store, { createdAt: iso(1000), environment: 'test' })).key;
        const c = (await seedKey(store, { createdAt: iso(2000), environment: 'live', status: 'revoked' }))
          .key;
        assert.deepEqual(
          (await store.listKeys()).map((k) => k.id),
          [c.id, b.id, a.id],
        );
        assert.deepEqual(
          (await store.listKeys({ environment: 'live' })).map((k) => k.id),
          [c.id, a.id],
        );
        assert.deepEqual(
          (await store.listKeys({ environment: 'live', status: 'active' })).map((k) => k.id),
          [a.id],
        );
        assert.deepEqual(
          (await store.listKeys({ status: 'revoked' })).map((k) => k.id),
          [c.id],
        );
      });
    });

    describe('commitChange with a version', () => {
      it('applies the change when the expected version matches', async () => {
        const { key } = await seedKey(store);
        const change = update(key, { scopes: ['article:r'] });
        assert.equal(await store.commitChange(change), true);
        const stored = await store.getKey(key.id);
        assert.deepEqual(stored?.scopes, ['article:r']);
        assert.equal(stored?.version, 2);
      });

      it('returns false and writes nothing (key, secrets, activity) on a version conflict', async () => {
        const { key } = await seedKey(store);
        assert.equal(await store.commitChange(update(key, { name: 'first' })), true);
        const stale = update(key, { name: 'second' }, [makeSecret(key.id)]);
        assert.equal(await store.commitChange(stale), false);
        assert.equal((await store.getKey(key.id))?.name, 'first');
        assert.equal((await store.listSecrets(key.id)).length, 1);
        const activity = await store.listActivity({ keyId: key.id });
        assert.equal(activity.items.length, 2);
        assert.ok(!activity.items.some((entry) => entry.id === stale.activity.id));
      });

      it('upserts secrets: inserts new ones and updates closing fields of existing ones', async () => {
        const { key, secret } = await seedKey(store);
        const fresh = makeSecret(key.id, { createdAt: iso(60_000) });
        const closing = { ...secret, closesAt: iso(86_400_000) };
        assert.equal(await store.commitChange(update(key, { prefix: fresh.prefix }, [fresh, closing])), true);
        const secrets = await store.listSecrets(key.id);
        assert.deepEqual(
          secrets.map((s) => s.id),
          [fresh.id, secret.id],
        );
        assert.equal(secrets[1]?.closesAt, iso(86_400_000));
        const closed = { ...closing, closedAt: iso(120_000), closedReason: 'manual' as const };
        const current = (await store.getKey(key.id))!;
        assert.equal(await store.commitChange(update(current, {}, [closed], iso(120_000))), true);
        const after = (await store.listSecrets(key.id)).find((s) => s.id === secret.id);
        assert.equal(after?.closedAt, iso(120_000));
        assert.equal(after?.closedReason, 'manual');
      });
    });

    describe('activity', () => {
      async function seedActivity() {
        const { key } = await seedKey(store, { environment: 'live' });
        const other = (await seedKey(store, { environment: 'test' })).key;
        let current = key;
        for (let i = 1; i <= 5; i++) {
          const change = update(current, { name: `n${i}` }, [], iso(i * 60_000));
          assert.equal(await store.commitChange(change), true);
          current = change.key;
        }
        return { key, other };
      }

      it('appends an entry about no key (a sandbox reset): listed overall and by environment', async () => {
        const { key } = await seedKey(store, { environment: 'test' });
        const entry = {
          id: uid('act'),
          keyId: null,
          environment: 'test' as const,
          action: 'sandbox.reset' as const,
          actor: { type: 'admin' as const, id: 'adm_000001' },
          at: iso(10 * 60_000),
          sourceIp: '127.0.0.1',
          before: null,
          after: null,
          details: { upstreams: ['commerce'] },
        };
        await store.appendActivity(entry);
        assert.deepEqual((await store.listActivity({})).items[0], entry);
        assert.deepEqual((await store.listActivity({ environment: 'test' })).items[0], entry);
        assert.deepEqual((await store.listActivity({ action: 'sandbox.reset' })).items, [entry]);
        assert.deepEqual(
          (await store.listActivity({ keyId: key.id })).items.map((e) => e.action),
          ['key.created'],
        );
        assert.deepEqual((await store.listActivity({ environment: 'live' })).items.length, 0);
      });

      it('pages an entry about no key in its place among the keys’ entries, overall and by environment', async () => {
        await seedActivity();
        const reset = {
          id: uid('act'),
          keyId: null,
          environment: 'live' as const,
          action: 'sandbox.reset' as const,
          actor: { type: 'admin' as const, id: 'adm_000001' },
          at: iso(3 * 60_000 + 30_000),
          sourceIp: '127.0.0.1',
          before: null,
          after: null,
          details: { upstreams: [] },
        };
        await store.appendActivity(reset);
        for (const filter of [{}, { environment: 'live' as const }]) {
          const walked: ActivityEntry[] = [];
          let cursor: string | undefined;
          do {
            const page = await store.listActivity({ ...filter, limit: 2, cursor });
            walked.push(...page.items);
            cursor = page.nextCursor ?? undefined;
          } while (cursor);
          const all = (await store.listActivity({ ...filter, limit: 100 })).items;
          assert.deepEqual(walked, all);
          assert.equal(walked.filter((entry) => entry.id === reset.id).length, 1);
          const at = walked.map((entry) => entry.at);
          assert.deepEqual(at, [...at].sort().reverse());
          const position = walked.findIndex((entry) => entry.id === reset.id);
          assert.equal(walked[position - 1]?.at, iso(4 * 60_000));
          assert.equal(walked[position + 1]?.at, iso(3 * 60_000));
        }
      });

      it('lists entries newest first with the fields as written', async () => {
        const { key } = await seedKey(store);
        const page = await store.listActivity({ keyId: key.id });
        assert.equal(page.items.length, 1);
        assert.deepEqual(page.items[0], makeActivity(key, { id: page.items[0]!.id }));
        assert.equal(page.nextCursor, null);
      });

      it('filters by key, environment, action and time range', async () => {
        const { key, other } = await seedActivity();
        assert.equal((await store.listActivity({ keyId: key.id })).items.length, 6);
        assert.deepEqual(
          (await store.listActivity({ environment: 'test' })).items.map((e) => e.keyId),
          [other.id],
        );
        const changed = await store.listActivity({ keyId: key.id, action: 'key.scopes_changed' });
        assert.equal(changed.items.length, 5);
        const ranged = await store.listActivity({
          keyId: key.id,
          from: iso(2 * 60_000),
          to: iso(4 * 60_000),
        });
        assert.deepEqual(
          ranged.items.map((e) => e.at),
          [iso(3 * 60_000), iso(2 * 60_000)],
        );
      });

      it('pages with an opaque cursor, without gaps or repeats', async () => {
        const { key } = await seedActivity();
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await store.listActivity({ keyId: key.id, limit: 2, cursor });
          seen.push(...page.items.map((e) => e.at));
          cursor = page.nextCursor ?? undefined;
          pages++;
        } while (cursor);
        assert.equal(pages, 3);
        assert.deepEqual(seen, [...seen].sort().reverse());
        assert.equal(new Set(seen).size, 6);
      });

      it('rejects a cursor it did not make', async () => {
        await assert.rejects(store.listActivity({ cursor: 'not-a-cursor' }), InvalidCursorError);
      });
    });

    describe('usage', () => {
      it('sums buckets of the same (key, secret, minute) and returns a range oldest first', async () => {
        const { key, secret } = await seedKey(store);
        await store.recordUsage([bucket(key, secret.id, 1), bucket(key, secret.id, 0)]);
        await store.recordUsage([
          bucket(key, secret.id, 1, {
            calls: 2,
            errors4xx: 0,
            errors5xx: 2,
            latencyMsSum: 100,
            latencyHistogram: histogram({ 6: 1, 12: 1 }),
            lastCallAt: iso(60_000 + 1_000),
          }),
        ]);
        const rows = await store.queryUsage({ keyId: key.id, from: T0, to: T0 + 2 * 60_000 });
        assert.deepEqual(
          rows.map((r) => r.minute),
          [T0, T0 + 60_000],
        );
        const merged = rows[1]!;
        assert.equal(merged.calls, 5);
        assert.equal(merged.errors4xx, 1);
        assert.equal(merged.errors5xx, 2);
        assert.equal(merged.latencyMsSum, 130);
        assert.deepEqual(merged.latencyHistogram, histogram({ 6: 4, 12: 1 }));
        assert.equal(merged.lastCallAt, iso(65_000));
        assert.deepEqual(await store.queryUsage({ keyId: key.id, from: T0 + 60_000, to: T0 + 60_001 }), [
          merged,
        ]);
        assert.deepEqual(await store.queryUsage({ keyId: key.id, from: T0 + 2 * 60_000, to: T0 + 9e6 }), []);
      });

      it('advances secret call counts and last-call times, and the key last call, without a version bump', async () => {
        const { key, secret } = await seedKey(store);
        await store.recordUsage([bucket(key, secret.id, 2, { calls: 4, lastCallAt: iso(125_000) })]);
        await store.recordUsage([bucket(key, secret.id, 1, { calls: 1, lastCallAt: iso(61_000) })]);
        const [stored] = await store.listSecrets(key.id);
        assert.equal(stored?.callCount, 5);
        assert.equal(stored?.lastCallAt, iso(125_000));
        const storedKey = await store.getKey(key.id);
        assert.equal(storedKey?.lastCallAt, iso(125_000));
        assert.equal(storedKey?.version, key.version);
      });

      it('keeps call counts and last-call times when a later change rewrites the key and secret', async () => {
        const { key, secret } = await seedKey(store);
        await store.recordUsage([bucket(key, secret.id, 0, { calls: 7 })]);
        const closing = { ...secret, closesAt: iso(86_400_000) };
        assert.equal(await store.commitChange(update(key, { name: 'renamed' }, [closing])), true);
        const [stored] = await store.listSecrets(key.id);
        assert.equal(stored?.callCount, 7);
        assert.equal(stored?.closesAt, iso(86_400_000));
        assert.equal((await store.getKey(key.id))?.lastCallAt, iso(5_000));
      });

      it('prunes buckets of every key that start before a time, says how many went, keeps the counters', async () => {
        const first = await seedKey(store);
        const second = await seedKey(store);
        await store.recordUsage([
          bucket(first.key, first.secret.id, 0),
          bucket(first.key, first.secret.id, 1),
          bucket(first.key, first.secret.id, 2),
          bucket(second.key, second.secret.id, 0),
        ]);
        assert.equal(await store.pruneUsage(T0 + 60_000), 2);
        const range = { from: 0, to: T0 + 9e6 };
        assert.deepEqual(
          (await store.queryUsage({ keyId: first.key.id, ...range })).map((r) => r.minute),
          [T0 + 60_000, T0 + 120_000],
        );
        assert.deepEqual(await store.queryUsage({ keyId: second.key.id, ...range }), []);
        assert.equal((await store.listSecrets(first.key.id))[0]?.callCount, 9);
        assert.equal(await store.pruneUsage(T0 + 60_000), 0);
      });
    });

    describe('API logs', () => {
      it('appends, queries newest first, filters by secret and time, and pages', async () => {
        const { key, secret } = await seedKey(store);
        const lines = [0, 1, 2, 3].map((i) => logLine(key, i === 3 ? 'sec_other' : secret.id, i * 1000));
        await store.appendLogs(lines);
        await store.appendLogs([lines[0]!]);
        const all = await store.queryLogs({ keyId: key.id });
        assert.deepEqual(
          all.items.map((l) => l.id),
          [lines[3]!.id, lines[2]!.id, lines[1]!.id, lines[0]!.id],
        );
        assert.deepEqual(all.items[0], lines[3]);
        const bySecret = await store.queryLogs({ keyId: key.id, secretId: secret.id, limit: 2 });
        assert.deepEqual(
          bySecret.items.map((l) => l.id),
          [lines[2]!.id, lines[1]!.id],
        );
        const next = await store.queryLogs({
          keyId: key.id,
          secretId: secret.id,
          limit: 2,
          cursor: bySecret.nextCursor!,
        });
        assert.deepEqual(
          next.items.map((l) => l.id),
          [lines[0]!.id],
        );
        assert.equal(next.nextCursor, null);
        const ranged = await store.queryLogs({ keyId: key.id, from: iso(1000), to: iso(3000) });
        assert.equal(ranged.items.length, 2);
        assert.deepEqual((await store.queryLogs({ keyId: 'key_other' })).items, []);
      });

      it('keeps the bodies of a line that has them (test keys), and none on a line without', async () => {
        const { key, secret } = await seedKey(store);
        const withBodies = {
          ...logLine(key, secret.id, 1000),
          bodies: {
            request: { contentType: 'application/json', text: '{"qty":1}', truncated: false },
            response: { contentType: 'text/plain; charset=utf-8', text: 'ok…', truncated: true },
          },
        };
        const withNone = { ...logLine(key, secret.id, 2000), bodies: { request: null, response: null } };
        const plain = logLine(key, secret.id, 3000);
        await store.appendLogs([withBodies, plain, withNone]);
        await store.appendLogs([withBodies]);
        const page = await store.queryLogs({ keyId: key.id });
        assert.deepEqual(page.items, [plain, withNone, withBodies]);
        assert.equal('bodies' in page.items[0]!, false);
      });

      it('keeps the trace id of a traced line (with or without bodies), and none on an untraced one', async () => {
        const { key, secret } = await seedKey(store);
        const traced = logLine(key, secret.id, 1000, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
        const tracedWithBodies = {
          ...logLine(key, secret.id, 2000, { traceId: '0af7651916cd43dd8448eb211c80319c' }),
          bodies: {
            request: null,
            response: { contentType: 'application/json', text: '{}', truncated: false },
          },
        };
        const untraced = logLine(key, secret.id, 3000);
        await store.appendLogs([traced, untraced]);
        await store.appendLogs([tracedWithBodies]);
        const page = await store.queryLogs({ keyId: key.id });
        assert.deepEqual(page.items, [untraced, tracedWithBodies, traced]);
        assert.equal('traceId' in page.items[0]!, false);
      });

      it('prunes lines older than a time and says how many went', async () => {
        const { key, secret } = await seedKey(store);
        await store.appendLogs([0, 1, 2].map((i) => logLine(key, secret.id, i * 1000)));
        assert.equal(await store.pruneLogs(iso(2000)), 2);
        assert.deepEqual(
          (await store.queryLogs({ keyId: key.id })).items.map((l) => l.at),
          [iso(2000)],
        );
      });
    });

    describe('administrators', () => {
      it('creates and finds an administrator by email, case-insensitively', async () => {
        const user = {
          id: 'adm_1',
          email: 'Ops@Example.com',
          passwordHash: '$argon2id$x',
          createdAt: iso(0),
        };
        assert.equal(await store.createAdmin(user), true);
        assert.deepEqual(await store.findAdminByEmail('ops@example.COM'), user);
        assert.equal(await store.findAdminByEmail('nobody@example.com'), null);
      });

      it('refuses a second administrator with the same email in another case', async () => {
        const user = { id: 'adm_1', email: 'ops@example.com', passwordHash: 'h', createdAt: iso(0) };
        assert.equal(await store.createAdmin(user), true);
        assert.equal(await store.createAdmin({ ...user, id: 'adm_2', email: 'OPS@example.com' }), false);
      });
    });

    describe('change marker and health', () => {
      it('moves when another connection commits a change', async () => {
        const peer = await fixture.openPeer();
        try {
          const before = await store.changeMarker();
          assert.equal(await store.changeMarker(), before);
          await seedKey(peer, { environment: 'test' as Environment });
          assert.ok(
            await eventually(async () => (await store.changeMarker()) !== before),
            'the change marker did not move within 2 s',
          );
        } finally {
          await peer.close();
        }
      });

      it('stays still while another connection writes usage, API logs and administrators', async () => {
        const { key, secret } = await seedKey(store);
        const peer = await fixture.openPeer();
        try {
          const before = await store.changeMarker();
          await peer.recordUsage([bucket(key, secret.id, 0)], 'usf_marker');
          await peer.appendLogs([logLine(key, secret.id, 0)]);
          await peer.createAdmin({
            id: 'adm_m',
            email: 'm@example.com',
            passwordHash: 'h',
            createdAt: iso(0),
          });
          assert.equal(await store.changeMarker(), before, 'a write that changed no key moved the marker');
          await seedKey(peer, { environment: 'test' as Environment });
          assert.ok(
            await eventually(async () => (await store.changeMarker()) !== before),
            'a key change after them did not move the marker within 2 s',
          );
        } finally {
          await peer.close();
        }
      });

      it('answers ping', async () => {
        assert.equal(await store.ping(), true);
      });
    });

    describeAdminSessionContract(() => ({ fixture, store }));
    describeIdempotencyContract(() => ({ fixture, store }));
    describeCommitCompanionsContract(() => ({ fixture, store }));
    describeBudgetConfigContract(() => ({ fixture, store }));
    describeSweepCandidatesContract(() => store);
  });
}
