// The API-log writer's thread (see log-writer.ts): its own connection to the gateway's SQLite
// file, inserting the batches the main thread posts (packed, see packLogRows) and pruning API-log
// lines and usage buckets past their retention (prune.ts), answering each job with its
// sequence number (and a prune with how many rows went).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createLogRowInserter, unpackLogRows } from './log-rows.ts';
import { createLogPruner, createUsagePruner } from './prune.ts';

const port = parentPort;
if (!port) throw new Error('log-writer-worker.ts runs only as a worker thread');
const client = new Database((workerData as { file: string }).file);
client.pragma('busy_timeout = 5000');
client.pragma('synchronous = NORMAL');
// Appending touches only the right edge of each b-tree: SQLite's own default page cache (2 MiB)
// serves that, where better-sqlite3's default (eight times it) would fill with old log pages.
client.pragma('cache_size = -2000');
const insertRows = createLogRowInserter(client);
const pruneLogs = createLogPruner(client);
const pruneUsage = createUsagePruner(client);

/** A batch of lines to insert (packed, see packLogRows), or a prune of lines or usage past their retention. */
export type LogWriterJob = { packed: string } | { pruneLogsBefore: string } | { pruneUsageBefore: number };

port.on('message', ({ seq, ...job }: LogWriterJob & { seq: number }) => {
  try {
    if ('packed' in job) {
      insertRows(unpackLogRows(job.packed));
      port.postMessage({ seq });
    } else if ('pruneLogsBefore' in job) port.postMessage({ seq, count: pruneLogs(job.pruneLogsBefore) });
    else port.postMessage({ seq, count: pruneUsage(job.pruneUsageBefore) });
  } catch (error) {
    port.postMessage({ seq, error: error instanceof Error ? error.message : String(error) });
  }
});
