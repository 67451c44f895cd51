import type Database from 'better-sqlite3';
import type { ApiLogEntry } from '../../model/model.ts';

/**
 * API-log lines as the insert's positional parameters, one line after another in one flat array
 * (LOG_ROW_FIELDS values each: id, key id, secret id, at, method, path, status, latency, client IP,
 * trace id or null):
 * one allocation for a whole batch, not one per line.
 */
export type LogRows = Array<string | number | null>;

/** Values per line in LogRows. */
export const LOG_ROW_FIELDS = 10;

/** Lines per transaction: another writer (the gateway's key changes, usage) waits at most one of them. */
export const LOG_ROWS_PER_TRANSACTION = 512;

/**
 * Lines per INSERT statement (the rest of a transaction one by one): a multi-row statement costs
 * the writer thread less CPU a line than a statement per line, and 32 saved more than 16 or 64.
 */
export const LOG_ROWS_PER_STATEMENT = 32;

export function logRowsOf(entries: readonly ApiLogEntry[]): LogRows {
  const rows: LogRows = new Array(entries.length * LOG_ROW_FIELDS);
  let at = 0;
  for (const entry of entries) {
    rows[at++] = entry.id;
    rows[at++] = entry.keyId;
    rows[at++] = entry.secretId;
    rows[at++] = entry.at;
    rows[at++] = entry.method;
    rows[at++] = entry.path;
    rows[at++] = entry.status;
    rows[at++] = entry.latencyMs;
    rows[at++] = entry.clientIp;
    rows[at++] = entry.traceId ?? null;
  }
  return rows;
}

/** A path that could be mistaken for the packing's separators (or its own escape) travels as JSON. */
const NEEDS_ESCAPE = /[\t\n]|^"/;

/**
 * API-log lines packed into one string for the writer thread: a line per entry, its fields (in
 * LogRows order) separated by tabs. Ids, times, methods, client addresses and numbers never hold a
 * tab or a newline; a path that does (or starts with `"`) is written as a JSON string. The latency
 * (ms, rounded to the µs) travels as whole microseconds: turning a fractional number into text
 * was half the cost of packing a line, an integer almost nothing. Posting an array of 10 values a
 * line instead cost more on the event loop (structured clone copies value by value); one flat
 * string is copied whole.
 */
export function packLogRows(entries: readonly ApiLogEntry[]): string {
  const lines = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const path = NEEDS_ESCAPE.test(entry.path) ? JSON.stringify(entry.path) : entry.path;
    lines[i] =
      `${entry.id}\t${entry.keyId}\t${entry.secretId}\t${entry.at}\t${entry.method}\t${path}\t` +
      `${entry.status}\t${Math.round(entry.latencyMs * 1000)}\t${entry.clientIp}\t${entry.traceId ?? ''}`;
  }
  return lines.join('\n');
}

/** The fields of one packed line, as text. */
type PackedLine = [
  id: string,
  keyId: string,
  secretId: string,
  at: string,
  method: string,
  path: string,
  status: string,
  latencyUs: string,
  clientIp: string,
  /** Empty when the call was not traced. */
  traceId: string,
];

/** The LogRows of a packLogRows string. */
export function unpackLogRows(packed: string): LogRows {
  if (packed === '') return [];
  const lines = packed.split('\n');
  const rows: LogRows = new Array(lines.length * LOG_ROW_FIELDS);
  let at = 0;
  for (const line of lines) {
    const fields = line.split('\t');
    if (fields.length !== LOG_ROW_FIELDS)
      throw new Error(`a packed API-log line has ${fields.length} fields`);
    const [id, keyId, secretId, when, method, path, status, latencyUs, clientIp, traceId] =
      fields as PackedLine;
    rows[at++] = id;
    rows[at++] = keyId;
    rows[at++] = secretId;
    rows[at++] = when;
    rows[at++] = method;
    rows[at++] = path.startsWith('"') ? (JSON.parse(path) as string) : path;
    rows[at++] = Number(status);
    rows[at++] = Number(latencyUs) / 1000;
    rows[at++] = clientIp;
    rows[at++] = traceId === '' ? null : traceId;
  }
  return rows;
}

/**
 * Inserts API-log lines on `client`, LOG_ROWS_PER_TRANSACTION to a transaction and
 * LOG_ROWS_PER_STATEMENT to a statement. A line already there (same request id) is skipped, so a
 * batch sent again after a failure lands once.
 */
export function createLogRowInserter(client: Database.Database): (rows: Readonly<LogRows>) => void {
  const statementOf = (lines: number) =>
    client.prepare(
      'INSERT INTO api_logs (id, key_id, secret_id, at, method, path, status, latency_ms, client_ip, trace_id) ' +
        `VALUES ${Array(lines).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} ON CONFLICT DO NOTHING`,
    );
  const insertOne = statementOf(1);
  const insertMany = statementOf(LOG_ROWS_PER_STATEMENT);
  const valuesPerStatement = LOG_ROWS_PER_STATEMENT * LOG_ROW_FIELDS;
  const insertSlice = client.transaction((rows: Readonly<LogRows>, from: number, to: number) => {
    const end = to * LOG_ROW_FIELDS;
    // Whole statements of LOG_ROWS_PER_STATEMENT lines while that many remain, then line by line.
    for (let i = from * LOG_ROW_FIELDS; i < end; ) {
      const many = end - i >= valuesPerStatement;
      const width = many ? valuesPerStatement : LOG_ROW_FIELDS;
      (many ? insertMany : insertOne).run(rows.slice(i, i + width));
      i += width;
    }
  });
  return (rows) => {
    const lines = rows.length / LOG_ROW_FIELDS;
    for (let from = 0; from < lines; from += LOG_ROWS_PER_TRANSACTION) {
      insertSlice(rows, from, Math.min(lines, from + LOG_ROWS_PER_TRANSACTION));
    }
  };
}
