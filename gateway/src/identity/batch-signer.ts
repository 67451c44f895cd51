import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { WORKER_RESOURCE_LIMITS } from '../runtime/heap.ts';
import { workerModuleUrl } from '../runtime/worker-module.ts';
import type { SigningWorkerData } from './signing-worker.ts';

/**
 * Gets an input's base64url JWS signature, or the error that lost it (the signature is then '').
 * It must not throw: the signatures answered after it in the same message would be lost.
 */
export type SignatureCallback = (error: Error | null, signature: string) => void;

/**
 * Identity signing in one worker thread, fed one message per event-loop turn: when the event loop is
 * the bottleneck, this costs it less than a libuv thread-pool job per signature (one hand-off and one
 * wake-up of the signing thread per batch, not per request).
 */
export interface BatchSigner {
  /** Queues `input` for this turn's batch; `done` gets its signature, or an error if the worker dies. */
  sign(input: string, done: SignatureCallback): void;
  /** Starts the worker now (if none runs), so the first batch does not wait for a thread to boot. */
  start(): void;
  /** Terminates the worker: signatures not answered yet fail, and so do later ones. */
  close(): Promise<void>;
}

/** One started worker thread and the callbacks of the signatures it owes, in the order it answers. */
interface WorkerRun {
  worker: Worker;
  waiting: SignatureCallback[];
  error: Error | null;
}

/** Signatures per answer from the worker: a few, so no request waits on a whole batch to be signed. */
const ANSWER_EVERY = 4;

const WORKER_MODULE = new URL('./signing-worker.ts', import.meta.url);

/** The error of a signature asked after `close`: unlike a dead worker's, signing elsewhere would be wrong too. */
export class SignerClosedError extends Error {
  constructor() {
    super('identity signer is closed');
    this.name = 'SignerClosedError';
  }
}

function fail(callbacks: SignatureCallback[], error: Error) {
  for (const done of callbacks) done(error, '');
}

/**
 * A batch signer over `key`. Its worker starts with the first batch, is unref'd (it never keeps the
 * process alive), and when it dies, what it owed fails and the next batch starts a new one.
 * `onStart` sees each worker started (tests terminate it mid-batch).
 */
export function createBatchSigner(
  key: KeyObject,
  options: { onStart?: (worker: Worker) => void } = {},
): BatchSigner {
  let run: WorkerRun | null = null;
  let closed = false;
  let inputs: string[] = [];
  let callbacks: SignatureCallback[] = [];

  function spawn(): WorkerRun {
    const workerData: SigningWorkerData = { key, answerEvery: ANSWER_EVERY };
    const started: WorkerRun = {
      worker: new Worker(workerModuleUrl(WORKER_MODULE), {
        workerData,
        resourceLimits: WORKER_RESOURCE_LIMITS,
      }),
      waiting: [],
      error: null,
    };
    const { worker, waiting } = started;
    worker.on('message', (signatures: string[]) => {
      for (const [index, done] of waiting.splice(0, signatures.length).entries()) {
        done(null, signatures[index]!);
      }
    });
    worker.on('error', (error) => {
      started.error = error;
      if (run === started) run = null;
    });
    worker.on('exit', (code) => {
      if (run === started) run = null;
      fail(waiting.splice(0), started.error ?? new Error(`identity signing worker exited with code ${code}`));
    });
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    options.onStart?.(worker);
    return started;
  }

  function flush() {
    const batch = inputs;
    const dones = callbacks;
    inputs = [];
    callbacks = [];
    if (closed) return fail(dones, new SignerClosedError());
    run ??= spawn();
    run.waiting.push(...dones);
    run.worker.postMessage(batch);
  }

  return {
    sign(input, done) {
      if (inputs.length === 0) setImmediate(flush);
      inputs.push(input);
      callbacks.push(done);
    },
    start() {
      if (!closed) run ??= spawn();
    },
    async close() {
      closed = true;
      const current = run;
      run = null;
      await current?.worker.terminate();
    },
  };
}
