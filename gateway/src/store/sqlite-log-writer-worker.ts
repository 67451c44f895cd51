// The API-log writer's thread (see sqlite-log-writer.ts): its own connection to the gateway's SQLite
// file, inserting the batches the main thread posts (packed, see packLogRows) and answering each
// with its sequence number.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createLogRowInserter, unpackLogRows } from './sqlite-log-rows.ts';

const port = parentPort;
if (!port) throw new Error('sqlite-log-writer-worker.ts runs only as a worker thread');
const client = new Database((workerData as { file: string }).file);
client.pragma('busy_timeout = 5000');
client.pragma('synchronous = NORMAL');
const insertRows = createLogRowInserter(client);

port.on('message', ({ seq, packed }: { seq: number; packed: string }) => {
  try {
    insertRows(unpackLogRows(packed));
    port.postMessage({ seq });
  } catch (error) {
    port.postMessage({ seq, error: error instanceof Error ? error.message : String(error) });
  }
});
