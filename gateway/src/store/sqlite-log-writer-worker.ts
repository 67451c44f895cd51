// The API-log writer's thread (see sqlite-log-writer.ts): its own connection to the gateway's SQLite
// file, inserting the batches the main thread posts and answering each with its sequence number.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createLogRowInserter, type LogRows } from './sqlite-log-rows.ts';

const port = parentPort;
if (!port) throw new Error('sqlite-log-writer-worker.ts runs only as a worker thread');
const client = new Database((workerData as { file: string }).file);
client.pragma('busy_timeout = 5000');
client.pragma('synchronous = NORMAL');
const insertRows = createLogRowInserter(client);

port.on('message', ({ seq, rows }: { seq: number; rows: LogRows }) => {
  try {
    insertRows(rows);
    port.postMessage({ seq });
  } catch (error) {
    port.postMessage({ seq, error: error instanceof Error ? error.message : String(error) });
  }
});
