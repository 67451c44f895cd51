// The API-log writer's thread (see sqlite-log-writer.ts): its own connection to the gateway's SQLite
// file, inserting the batches the main thread posts (packed, see packLogRows) and pruning old lines,
// answering each job with its sequence number (and a prune with how many lines went).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createLogPruner, createLogRowInserter, unpackLogRows } from './sqlite-log-rows.ts';

const port = parentPort;
if (!port) throw new Error('sqlite-log-writer-worker.ts runs only as a worker thread');
const client = new Database((workerData as { file: string }).file);
client.pragma('busy_timeout = 5000');
client.pragma('synchronous = NORMAL');
const insertRows = createLogRowInserter(client);
const pruneRows = createLogPruner(client);

/** A batch of lines to insert (packed, see packLogRows), or a prune of the lines older than an ISO time. */
type Job = { seq: number; packed: string } | { seq: number; pruneBefore: string };

port.on('message', (job: Job) => {
  try {
    if ('packed' in job) {
      insertRows(unpackLogRows(job.packed));
      port.postMessage({ seq: job.seq });
    } else port.postMessage({ seq: job.seq, count: pruneRows(job.pruneBefore) });
  } catch (error) {
    port.postMessage({ seq: job.seq, error: error instanceof Error ? error.message : String(error) });
  }
});
