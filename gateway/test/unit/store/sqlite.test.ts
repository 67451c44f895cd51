import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { decodeCursor, encodeCursor, InvalidCursorError } from '../../../src/store/cursor.ts';
import { PRUNE_KEYS_PER_TRANSACTION } from '../../../src/store/sqlite/prune.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import { describeKeyStoreContract } from '../../store.contract.ts';
import { turnsWhile } from '../../support/event-loop.ts';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'keygate-store-'));
}

describeKeyStoreContract('sqlite', async () => {
  const dir = tempDir();
  const file = join(dir, 'gateway.db');
  const store = openSqliteKeyStore(file);
  return {
    store,
    alerts: store.alertStorage,
    openPeer: async () => openSqliteKeyStore(file),
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('openSqliteKeyStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('with an empty file', () => {
    it('creates the directory, runs the migrations and turns on WAL and foreign keys', async () => {
      const file = join(dir, 'nested', 'gateway.db');
      const store = openSqliteKeyStore(file);
      await store.close();
      const db = new Database(file, { readonly: true });
      try {
        const tables = db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
          .all()
          .map((row) => (row as { name: string }).name);
        for (const table of [
          'activity',
          'admin_login_failures',
          'admin_sessions',
          'admin_users',
          'api_logs',
          'keys',
          'secrets',
          'usage_buckets',
        ]) {
          assert.ok(tables.includes(table), `missing table ${table}`);
        }
        assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
        const indexes = db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'secrets'")
          .all()
          .map((row) => (row as { name: string }).name);
        assert.ok(indexes.includes('secrets_lookup_idx'));
        assert.ok(indexes.includes('secrets_open_closes_idx'));
      } finally {
        db.close();
      }
    });

    it('opens an already migrated file again without error', async () => {
      const file = join(dir, 'gateway.db');
      await openSqliteKeyStore(file).close();
      const again = openSqliteKeyStore(file);
      assert.equal(await again.ping(), true);
      await again.close();
    });
  });

  describe('API-log prune', () => {
    it('deletes the lines older than a time off the event loop: it turns while the prune runs', async () => {
      const store = openSqliteKeyStore(join(dir, 'gateway.db'));
      try {
        const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
        const lines = Array.from({ length: 20_000 }, (_, i) => ({
          id: `req_${String(i).padStart(20, '0')}`,
          keyId: 'key_1',
          secretId: 'sec_1',
          at: at(i),
          method: 'GET',
          path: '/v2/catalog/products',
          status: 200,
          latencyMs: 1,
          clientIp: '203.0.113.7',
        }));
        await store.appendLogs(lines);
        assert.deepEqual(await turnsWhile(store.pruneLogs(at(15_000)), 2), { value: 15_000, turns: 2 });
        const left = await store.queryLogs({ keyId: 'key_1', limit: 1 });
        assert.equal(left.items[0]!.id, lines[19_999]!.id);
      } finally {
        await store.close();
      }
    });
  });

  describe('usage prune', () => {
    it('deletes the buckets of earlier minutes, key by key, off the event loop: it turns while the prune runs', async () => {
      const store = openSqliteKeyStore(join(dir, 'gateway.db'));
      try {
        const t0 = Date.UTC(2026, 0, 1);
        const keys = PRUNE_KEYS_PER_TRANSACTION * 2 + 17;
        const buckets = Array.from({ length: keys * 3 }, (_, i) => ({
          keyId: `key_${String(i % keys).padStart(5, '0')}`,
          secretId: 'sec_1',
          minute: t0 + Math.floor(i / keys) * 60_000,
          calls: 1,
          errors4xx: 0,
          errors5xx: 0,
          latencyMsSum: 1,
          latencyHistogram: [1],
          lastCallAt: new Date(t0).toISOString(),
        }));
        for (let i = 0; i < buckets.length; i += 200) await store.recordUsage(buckets.slice(i, i + 200));
        assert.deepEqual(await turnsWhile(store.pruneUsage(t0 + 2 * 60_000), 2), {
          value: keys * 2,
          turns: 2,
        });
        for (const keyId of ['key_00000', `key_${String(keys - 1).padStart(5, '0')}`]) {
          const left = await store.queryUsage({ keyId, from: t0, to: t0 + 3 * 60_000 });
          assert.deepEqual(
            left.map((bucket) => bucket.minute),
            [t0 + 2 * 60_000],
            keyId,
          );
        }
      } finally {
        await store.close();
      }
    });
  });

  describe('change marker', () => {
    it('shows a key change another connection committed in the very next turn of the event loop', async () => {
      const file = join(dir, 'gateway.db');
      const store = openSqliteKeyStore(file);
      const peer = new Database(file);
      try {
        for (let round = 0; round < 3; round++) {
          const before = store.changeMarker();
          peer.prepare("UPDATE store_counters SET value = value + 1 WHERE name = 'key_generation'").run();
          await setImmediatePromise();
          assert.notEqual(store.changeMarker(), before, `round ${round}: the marker did not move`);
        }
      } finally {
        peer.close();
        await store.close();
      }
    });
  });

  describe('with a change whose activity names an unknown key', () => {
    it('rejects it (foreign keys are on) and rolls back the key and secret written before', async () => {
      const store = openSqliteKeyStore(join(dir, 'gateway.db'));
      try {
        const at = '2025-03-01T10:00:00.000Z';
        const key = {
          id: 'key_fk',
          name: 'fk',
          environment: 'live' as const,
          scopes: ['article:r'],
          expiresAt: null,
          ipAllowlist: [],
          rateLimit: { perMinute: 10 },
          prefix: 'kg_live_fkfkfkfk',
          status: 'active' as const,
          revokedAt: null,
          remindersSent: [],
          createdAt: at,
          updatedAt: at,
          lastCallAt: null,
          version: 1,
        };
        const secret = {
          id: 'sec_fk',
          keyId: key.id,
          lookup: 'fkfkfkfk',
          prefix: key.prefix,
          hash: 'h',
          createdAt: at,
          closesAt: null,
          closedAt: null,
          closedReason: null,
          callCount: 0,
          lastCallAt: null,
        };
        const activity = {
          id: 'act_fk',
          keyId: 'key_none',
          environment: 'live' as const,
          action: 'key.created' as const,
          actor: { type: 'admin' as const, id: 'cli' },
          at,
          sourceIp: null,
          before: null,
          after: null,
          details: {},
        };
        await assert.rejects(store.commitChange({ key, expectedVersion: null, secrets: [secret], activity }));
        assert.equal(await store.getKey(key.id), null);
        assert.equal(await store.findByLookup(secret.lookup), null);
      } finally {
        await store.close();
      }
    });
  });
});

describe('page cursors', () => {
  it('round-trip a position and refuse anything else', () => {
    const position = { at: '2025-03-01T10:00:00.000Z', id: 'act_1' };
    assert.deepEqual(decodeCursor(encodeCursor(position)), position);
    assert.throws(() => decodeCursor('%%%'), InvalidCursorError);
    assert.throws(() => decodeCursor(Buffer.from('[1,2]').toString('base64url')), InvalidCursorError);
  });
});
