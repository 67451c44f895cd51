import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createKeyService, type KeyService } from '../../../src/keys/key-service.ts';
import { generateToken, parseToken } from '../../../src/keys/token.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import type { Actor } from '../../../src/model/model.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import type { KeyStore } from '../../../src/store/store.ts';
import { createCountingHasher } from '../../support/counting-hasher.ts';

const ADMIN: Actor = { type: 'admin', id: 'adm_test' };
const CLI = { sourceIp: null };

/** The end of the current turn of the event loop: a change-marker reading is not reused past it. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The SQLite store answers unknown lookups from its in-memory index of every lookup on file. It may
 * never answer "unknown" for a secret on file: written through it, or by another connection (the CLI)
 * after the lookup was asked, or written in place of a deleted row.
 */
describe('the lookup index of the SQLite store', () => {
  let file: string;
  let gateway: KeyStore;
  let cli: KeyStore;
  let viaGateway: KeyService;
  let viaCli: KeyService;

  beforeEach(() => {
    file = join(mkdtempSync(join(tmpdir(), 'keygate-lookups-')), 'gateway.db');
    gateway = openSqliteKeyStore(file);
    cli = openSqliteKeyStore(file);
    const hasher = createCountingHasher();
    viaGateway = createKeyService({
      store: gateway,
      hasher,
      events: createLocalKeyEvents(),
      clock: Date.now,
    });
    viaCli = createKeyService({ store: cli, hasher, events: createLocalKeyEvents(), clock: Date.now });
  });
  afterEach(async () => {
    await Promise.all([gateway?.close(), cli?.close()]);
  });

  const lookupOf = (token: string) => parseToken(token)!.lookup;
  const create = (service: KeyService) =>
    service.createKey(ADMIN, { name: 'k', environment: 'live', scopes: ['article:r'] }, CLI);

  it('says so in memory for an unknown lookup, and finds the keys written through it at once', async () => {
    assert.equal(gateway.lookupsInMemory, true);
    assert.equal(gateway.findByLookup(lookupOf(generateToken('live').token)), null);
    const { key, secret } = await create(viaGateway);
    assert.equal((gateway.findByLookup(lookupOf(secret)) as { key: { id: string } }).key.id, key.id);
    const rotated = await viaGateway.rotateKey(ADMIN, key.id, { overlapDays: 1 }, CLI);
    assert.equal((gateway.findByLookup(lookupOf(rotated.secret)) as { key: { id: string } }).key.id, key.id);
  });

  it('finds a key another connection wrote right after the lookup was refused, on the next turn', async () => {
    const early = await create(viaCli);
    const opened = openSqliteKeyStore(file);
    try {
      // Keys on file before the store opened are in its index.
      assert.ok(opened.findByLookup(lookupOf(early.secret)));
      const refusedFirst = generateToken('live');
      assert.equal(opened.findByLookup(refusedFirst.lookup), null);
      const late = await create(viaCli);
      await nextTurn();
      assert.equal(
        (opened.findByLookup(lookupOf(late.secret)) as { key: { id: string } }).key.id,
        late.key.id,
      );
    } finally {
      await opened.close();
    }
  });

  it('reads everything again when a secret row was deleted by hand and its rowid used again', async () => {
    await create(viaCli);
    const last = await create(viaCli);
    await nextTurn();
    // Read in from the file (another connection wrote it), up to its highest rowid.
    assert.ok(gateway.findByLookup(lookupOf(last.secret)));
    // Another connection deletes the newest secret row and writes a new one, which takes its rowid.
    const raw = new Database(file);
    try {
      const row = raw
        .prepare('SELECT rowid, * FROM secrets WHERE lookup = ?')
        .get(lookupOf(last.secret)) as Record<string, unknown>;
      const replacement = generateToken('live');
      raw.transaction(() => {
        raw.prepare('DELETE FROM secrets WHERE rowid = ?').run(row.rowid);
        raw
          .prepare(
            'INSERT INTO secrets (id, key_id, lookup, prefix, hash, tag, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          )
          .run(
            'sec_replacement',
            row.key_id,
            replacement.lookup,
            replacement.prefix,
            row.hash,
            null,
            row.created_at,
          );
        raw.prepare("UPDATE store_counters SET value = value + 1 WHERE name = 'key_generation'").run();
      })();
      assert.equal(
        (raw.prepare('SELECT rowid FROM secrets WHERE id = ?').get('sec_replacement') as { rowid: number })
          .rowid,
        row.rowid,
      );
      await nextTurn();
      const found = gateway.findByLookup(replacement.lookup) as { secret: { id: string } } | null;
      assert.equal(found?.secret.id, 'sec_replacement');
      assert.equal(gateway.findByLookup(lookupOf(last.secret)), null);
    } finally {
      raw.close();
    }
  });
});
