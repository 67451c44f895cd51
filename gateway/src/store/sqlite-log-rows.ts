import type Database from 'better-sqlite3';
import type { ApiLogEntry } from '../keys/model.ts';

/** An API-log line as the insert's positional parameters (cheap to post to a worker thread). */
export type LogRow = [
  id: string,
  keyId: string,
  secretId: string,
  at: string,
  method: string,
  path: string,
  status: number,
  latencyMs: number,
  clientIp: string,
];

/** Lines per transaction: another writer (the gateway's key changes, usage) waits at most one of them. */
export const LOG_ROWS_PER_TRANSACTION = 500;

export function logRowOf(entry: ApiLogEntry): LogRow {
  const { id, keyId, secretId, at, method, path, status, latencyMs, clientIp } = entry;
  return [id, keyId, secretId, at, method, path, status, latencyMs, clientIp];
}

/**
 * Inserts API-log rows on `client`, LOG_ROWS_PER_TRANSACTION to a transaction. A line already
 * there (same request id) is skipped, so a batch sent again after a failure lands once.
 */
export function createLogRowInserter(client: Database.Database): (rows: readonly LogRow[]) => void {
  const insert = client.prepare(
    'INSERT INTO api_logs (id, key_id, secret_id, at, method, path, status, latency_ms, client_ip) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const insertSlice = client.transaction((rows: readonly LogRow[], from: number, to: number) => {
    for (let i = from; i < to; i++) insert.run(rows[i]);
  });
  return (rows) => {
    for (let from = 0; from < rows.length; from += LOG_ROWS_PER_TRANSACTION) {
      insertSlice(rows, from, Math.min(rows.length, from + LOG_ROWS_PER_TRANSACTION));
    }
  };
}
