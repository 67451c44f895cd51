import { Worker } from 'node:worker_threads';
import type { ApiLogEntry } from '../keys/model.ts';
import { packLogRows } from './sqlite-log-rows.ts';

/** Appends API-log lines to the SQLite file from a worker thread. */
export interface SqliteLogWriter {
  /** Resolves once every line is committed; rejects (nothing lost: a retry lands each line once) otherwise. */
  append(entries: readonly ApiLogEntry[]): Promise<void>;
  /** Stops the thread; appends still waiting are rejected. */
  close(): Promise<void>;
}

interface Waiting {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The API log of a gateway on SQLite is written by a worker thread on its own connection: a flush
 * is every line of the last seconds (12,000 at 6,000 requests/s), and inserting them on the event
 * loop stopped every request for that long. The thread starts with the first append and again
 * after it died; it keeps the process alive only while an append waits for it.
 */
export function startSqliteLogWriter(file: string): SqliteLogWriter {
  let current: Thread | null = null;
  let lastSeq = 0;

  /** A writer thread and the appends waiting for it; a failed thread is replaced, never posted to again. */
  interface Thread {
    worker: Worker;
    waiting: Map<number, Waiting>;
  }

  function spawn(): Thread {
    const worker = new Worker(new URL('./sqlite-log-writer-worker.ts', import.meta.url), {
      workerData: { file },
    });
    const thread: Thread = { worker, waiting: new Map() };
    const retire = (error: Error) => {
      if (current === thread) current = null;
      for (const entry of thread.waiting.values()) entry.reject(error);
      thread.waiting.clear();
    };
    worker.unref();
    worker.on('message', ({ seq, error }: { seq: number; error?: string }) => {
      const entry = thread.waiting.get(seq);
      thread.waiting.delete(seq);
      if (thread.waiting.size === 0) worker.unref();
      if (error === undefined) entry?.resolve();
      else entry?.reject(new Error(`API-log write failed: ${error}`));
    });
    worker.on('error', retire);
    worker.on('exit', (code) => retire(new Error(`API-log writer thread exited (code ${code})`)));
    return thread;
  }

  return {
    append(entries) {
      if (entries.length === 0) return Promise.resolve();
      current ??= spawn();
      const { worker, waiting } = current;
      const seq = ++lastSeq;
      return new Promise<void>((resolve, reject) => {
        waiting.set(seq, { resolve, reject });
        worker.ref();
        worker.postMessage({ seq, packed: packLogRows(entries) });
      });
    },
    async close() {
      const thread = current;
      current = null;
      if (thread) await thread.worker.terminate();
    },
  };
}
