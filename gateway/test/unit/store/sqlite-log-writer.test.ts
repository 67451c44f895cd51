import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ApiLogEntry } from '../../../src/model/model.ts';
import { LOG_ROWS_PER_TRANSACTION } from '../../../src/store/sqlite/log-rows.ts';
import { type SqliteLogWriter, startSqliteLogWriter } from '../../../src/store/sqlite/log-writer.ts';
import { PRUNE_ROWS_PER_TRANSACTION } from '../../../src/store/sqlite/prune.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import { turnsWhile } from '../../support/event-loop.ts';

function line(i: number): ApiLogEntry {
  return {
    id: `req_${String(i).padStart(20, '0')}`,
    keyId: 'key_1',
    secretId: 'sec_1',
    at: new Date(1_763_700_000_000 + i).toISOString(),
    method: 'GET',
    path: `/v2/catalog/products?page=${i}`,
    status: 200,
    latencyMs: 1.5,
    clientIp: '203.0.113.7',
  };
}

describe('startSqliteLogWriter (API-log lines written by a worker thread)', () => {
  let dir: string;
  let file: string;
  let writer: SqliteLogWriter | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-logwriter-'));
    file = join(dir, 'gateway.db');
  });
  afterEach(async () => {
    await writer?.close();
    writer = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function rowsOnDisk(): Array<{ id: string; path: string; status: number; client_ip: string }> {
    const reader = new Database(file, { readonly: true });
    try {
      return reader.prepare('SELECT id, path, status, client_ip FROM api_logs ORDER BY id').all() as never;
    } finally {
      reader.close();
    }
  }

  it('commits every line of a batch larger than one transaction before it resolves', async () => {
    await openSqliteKeyStore(file).close();
    writer = startSqliteLogWriter(file);
    const lines = Array.from({ length: LOG_ROWS_PER_TRANSACTION * 2 + 7 }, (_, i) => line(i));
    await writer.append(lines);
    const rows = rowsOnDisk();
    assert.equal(rows.length, lines.length);
    assert.deepEqual(rows[3], {
      id: lines[3]!.id,
      path: lines[3]!.path,
      status: 200,
      client_ip: '203.0.113.7',
    });
  });

  it('lands every field exactly as given, paths with tabs, newlines, quotes and non-ASCII text included', async () => {
    await openSqliteKeyStore(file).close();
    writer = startSqliteLogWriter(file);
    const paths = [
      '/v2/catalog/products?q=a\tb',
      '/v2/a\nb\n',
      '"/v2/quoted"',
      '/v2/\\x"y',
      '/v2/catalog/products?q=K\u00e4se&x=\u{1f600}',
      '',
    ];
    const lines = paths.map((path, i) => ({
      ...line(i),
      path,
      method: i % 2 === 0 ? 'GET' : 'DELETE',
      status: 400 + i,
      latencyMs: 0.125 * i + 1e-3,
      clientIp: '2001:db8::7',
    }));
    await writer.append(lines);
    const reader = new Database(file, { readonly: true });
    try {
      const rows = reader
        .prepare(
          'SELECT id, key_id AS keyId, secret_id AS secretId, at, method, path, status, latency_ms AS latencyMs, client_ip AS clientIp FROM api_logs ORDER BY id',
        )
        .all();
      assert.deepEqual(rows, lines);
    } finally {
      reader.close();
    }
  });

  it('prunes the lines older than a time, over three chunks, in its thread while the event loop runs on', async () => {
    await openSqliteKeyStore(file).close();
    writer = startSqliteLogWriter(file);
    const total = PRUNE_ROWS_PER_TRANSACTION * 3 + 500;
    const lines = Array.from({ length: total }, (_, i) => line(i));
    for (let i = 0; i < total; i += 10_000) await writer.append(lines.slice(i, i + 10_000));
    const older = PRUNE_ROWS_PER_TRANSACTION * 2 + 123;
    const { value: count, turns } = await turnsWhile(writer.pruneLogs(lines[older]!.at), 3);
    assert.equal(count, older);
    assert.equal(turns, 3, 'the event loop went on turning while the thread deleted');
    const left = rowsOnDisk();
    assert.equal(left.length, total - older);
    assert.equal(left[0]!.id, lines[older]!.id);
    assert.equal(await writer.pruneLogs(lines[older]!.at), 0, 'nothing older is left');
  });

  it('lands a line sent twice (a retried flush) once', async () => {
    await openSqliteKeyStore(file).close();
    writer = startSqliteLogWriter(file);
    await writer.append([line(1), line(2)]);
    await writer.append([line(2), line(3)]);
    assert.deepEqual(
      rowsOnDisk().map((r) => r.id),
      [line(1).id, line(2).id, line(3).id],
    );
  });

  it('rejects a batch when its thread fails (no api_logs table), and a new thread writes the next', async () => {
    new Database(file).close();
    writer = startSqliteLogWriter(file);
    await assert.rejects(writer.append([line(1)]), /no such table: api_logs/);
    await openSqliteKeyStore(file).close();
    await writer.append([line(1)]);
    assert.equal(rowsOnDisk().length, 1);
  });

  it('rejects what waits when it is closed, and starts a new thread for the next append', async () => {
    await openSqliteKeyStore(file).close();
    writer = startSqliteLogWriter(file);
    const waiting = writer.append([line(1)]);
    await writer.close();
    await assert.rejects(waiting, /API-log writer thread exited/);
    await writer.append([line(2)]);
    assert.deepEqual(
      rowsOnDisk().map((r) => r.id),
      [line(2).id],
    );
  });
});
