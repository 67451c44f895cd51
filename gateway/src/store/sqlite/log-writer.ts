import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { ApiLogEntry } from '../../model/model.ts';
import { WORKER_RESOURCE_LIMITS } from '../../runtime/heap.ts';
import { workerModuleUrl } from '../../runtime/worker-module.ts';
import { createLogRowInserter, logRowsOf, packLogRows } from './log-rows.ts';
import type { LogWriterJob } from './log-writer-worker.ts';
import { createLogPruner, createUsagePruner } from './prune.ts';

/** The API-log and pruning jobs of a SQLite store: its log-writer thread's, or done in place. */
export type SqliteLogWork = Omit<SqliteLogWriter, 'close'>;

/** Appends API-log lines to the SQLite file, and prunes lines and usage buckets, from a worker thread. */
export interface SqliteLogWriter {
  /** Resolves once every line is committed; rejects (nothing lost: a retry lands each line once) otherwise. */
  append(entries: readonly ApiLogEntry[]): Promise<void>;
  /** Deletes the lines older than `before` (ISO), a chunk per transaction; resolves with how many went. */
  pruneLogs(before: string): Promise<number>;
  /** Deletes the usage buckets of minutes before `beforeMs`, key by key; resolves with how many went. */
  pruneUsage(beforeMs: number): Promise<number>;
  /** Stops the thread; jobs still waiting are rejected. */
  close(): Promise<void>;
}

interface Waiting {
  resolve: (count: number) => void;
  reject: (error: Error) => void;
}

/**
 * The API log of a gateway on SQLite is written by a worker thread on its own connection: a flush
 * is every line of the last seconds (thousands on a busy gateway), and inserting them on the event
 * loop stopped every request for that long. Pruning is its job too (see prune.ts). The
 * thread starts with the first job and again after it died; it keeps the process alive only while
 * a job waits for it.
 */
export function startSqliteLogWriter(file: string): SqliteLogWriter {
  let current: Thread | null = null;
  let lastSeq = 0;

  /** A writer thread and the jobs waiting for it; a failed thread is replaced, never posted to again. */
  interface Thread {
    worker: Worker;
    waiting: Map<number, Waiting>;
  }

  function spawn(): Thread {
    const worker = new Worker(workerModuleUrl(new URL('./log-writer-worker.ts', import.meta.url)), {
      workerData: { file },
      resourceLimits: WORKER_RESOURCE_LIMITS,
    });
    const thread: Thread = { worker, waiting: new Map() };
    const retire = (error: Error) => {
      if (current === thread) current = null;
      for (const entry of thread.waiting.values()) entry.reject(error);
      thread.waiting.clear();
    };
    worker.unref();
    worker.on('message', ({ seq, count, error }: { seq: number; count?: number; error?: string }) => {
      const entry = thread.waiting.get(seq);
      thread.waiting.delete(seq);
      if (thread.waiting.size === 0) worker.unref();
      if (error === undefined) entry?.resolve(count ?? 0);
      else entry?.reject(new Error(`API-log writer thread: ${error}`));
    });
    worker.on('error', retire);
    worker.on('exit', (code) => retire(new Error(`API-log writer thread exited (code ${code})`)));
    return thread;
  }

  /** Posts a job to the thread (started if none runs) and resolves with its answer's count. */
  function run(job: LogWriterJob): Promise<number> {
    current ??= spawn();
    const { worker, waiting } = current;
    const seq = ++lastSeq;
    return new Promise<number>((resolve, reject) => {
      waiting.set(seq, { resolve, reject });
      worker.ref();
      worker.postMessage({ seq, ...job });
    });
  }

  return {
    async append(entries) {
      if (entries.length > 0) await run({ packed: packLogRows(entries) });
    },
    pruneLogs: (before) => run({ pruneLogsBefore: before }),
    pruneUsage: (beforeMs) => run({ pruneUsageBefore: beforeMs }),
    async close() {
      const thread = current;
      current = null;
      if (thread) await thread.worker.terminate();
    },
  };
}

/**
 * The writer thread's jobs done on `client` itself: an in-memory database has no file another
 * connection could open.
 */
export function inPlaceLogWork(client: Database.Database): SqliteLogWork {
  const insertRows = createLogRowInserter(client);
  const pruneLogs = createLogPruner(client);
  const pruneUsage = createUsagePruner(client);
  return {
    append: async (entries) => insertRows(logRowsOf(entries)),
    pruneLogs: async (before) => pruneLogs(before),
    pruneUsage: async (beforeMs) => pruneUsage(beforeMs),
  };
}
