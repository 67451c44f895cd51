import type { Tracer } from '@keygate/tracing';
import { createWebhookHeaders } from '@keygate/webhooks';
import type { Logger } from 'pino';
import type { DeliveryClaim, DeliveryStore } from './delivery-store.ts';
import { sendTraced } from './delivery-trace.ts';
import type { SendWebhook } from './http-sender.ts';
import { type AttemptResult, decideOutcome, type RetryPolicy } from './retry-policy.ts';
import { type AddressCheck, checkUrlAddress, type LookupHost } from './url-policy.ts';

/** Timer functions, injectable so tests control when the worker wakes. */
export interface WorkerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface WebhookWorkerOptions extends RetryPolicy {
  /** Deadline of one request, connection to the end of the (≤ 1 KiB) response. */
  timeoutMs: number;
  /** Most attempts in flight at once (always at most one per endpoint). */
  concurrency: number;
  /** Longest sleep between looks at the outbox when nothing is due sooner. */
  pollIntervalMs: number;
  allowPrivateAddresses: boolean;
}

/** The delivery worker: at least once, in order per endpoint, surviving restarts. */
export interface WebhookWorker {
  /** Recovers deliveries a previous process left in flight, then keeps delivering until stopped. */
  start(): void;
  /** Wakes the worker soon (new deliveries); safe to call inside a transaction. */
  notify(): void;
  /** Claims what is due now and delivers it; resolves with how many attempts ran (tests drive this). */
  runOnce(): Promise<number>;
  /** Stops claiming, aborts attempts in flight (they stay pending, same webhook-id) and waits for them. */
  stop(): Promise<void>;
}

const DEFAULT_TIMERS: WorkerTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** An attempt that never reached the receiver. */
const NO_ANSWER: AttemptResult = {
  statusCode: null,
  durationMs: 0,
  response: null,
  responseTruncated: false,
  retryAfter: null,
  error: null,
};

/** How long past the request timeout a claim may stay `delivering` before it counts as abandoned. */
const STALE_CLAIM_MARGIN_MS = 30_000;

/** The shortest sleep between ticks, so a clock that stands still cannot spin the loop. */
const MIN_SLEEP_MS = 5;

export function createWebhookWorker(deps: {
  store: DeliveryStore;
  send: SendWebhook;
  options: WebhookWorkerOptions;
  logger: Logger;
  clock?: () => Date;
  timers?: WorkerTimers;
  random?: () => number;
  lookupHost: LookupHost;
  /** With tracing on: a span per attempt, linked to the trace that wrote the event, its `traceparent` sent. */
  tracer?: Tracer | null;
}): WebhookWorker {
  const { store, options, logger } = deps;
  const clock = deps.clock ?? (() => new Date());
  const timers = deps.timers ?? DEFAULT_TIMERS;
  const random = deps.random ?? Math.random;
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let timer: { handle: unknown; dueAt: number } | null = null;
  let isRunning = false;
  let isStopped = false;

  async function attempt(claim: DeliveryClaim, signal: AbortSignal): Promise<AttemptResult> {
    const url = new URL(claim.url);
    const check: AddressCheck = await checkUrlAddress(url, {
      allowPrivate: options.allowPrivateAddresses,
      lookupHost: deps.lookupHost,
    });
    if (!check.ok) {
      logger.warn({ deliveryId: claim.deliveryId, detail: check.detail }, 'webhook target refused');
      return { ...NO_ANSWER, error: `refused: ${check.reason}` };
    }
    const message = { id: claim.deliveryId, timestamp: claim.webhookTimestamp, body: claim.body };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'keygate-webhooks/1.0',
      ...createWebhookHeaders(claim.secrets, message),
    };
    const outgoing = {
      url,
      target: check.target,
      headers,
      body: claim.body,
      timeoutMs: options.timeoutMs,
      signal,
    };
    return deps.tracer ? sendTraced(deps.tracer, deps.send, outgoing, claim) : deps.send(outgoing);
  }

  async function deliver(claim: DeliveryClaim, controller: AbortController): Promise<void> {
    const result = await attempt(claim, controller.signal).catch(
      (error: unknown): AttemptResult => ({ ...NO_ANSWER, error: `failed before sending: ${String(error)}` }),
    );
    const now = clock();
    if (controller.signal.aborted) {
      store.releaseAttempt(claim, 'interrupted: the worker stopped during this attempt', now);
      return;
    }
    const outcome = decideOutcome({
      result,
      scheduleStep: claim.scheduleStep,
      failingSince: claim.failingSince === null ? null : new Date(claim.failingSince),
      now,
      policy: options,
      random,
    });
    store.completeAttempt(claim, result, outcome, now);
    const log = { deliveryId: claim.deliveryId, endpointId: claim.endpointId, eventType: claim.eventType };
    if (outcome.status === 'succeeded')
      logger.debug({ ...log, status: result.statusCode }, 'webhook delivered');
    else {
      const next = outcome.nextAttemptAt?.toISOString() ?? null;
      logger.warn(
        { ...log, status: result.statusCode, error: result.error, next, disable: outcome.disable },
        'webhook attempt failed',
      );
    }
  }

  /** After a crash recording the attempt: the delivery is pending again, or it blocks its endpoint until its claim goes stale. */
  function putBack(claim: DeliveryClaim): void {
    try {
      store.releaseAttempt(claim, 'interrupted: recording the attempt failed', clock());
    } catch (error) {
      logger.error({ err: error, deliveryId: claim.deliveryId }, 'webhook delivery left delivering');
    }
  }

  function launch(claim: DeliveryClaim): Promise<void> {
    const controller = new AbortController();
    const done = deliver(claim, controller)
      .catch((error: unknown) => {
        logger.error({ err: error, deliveryId: claim.deliveryId }, 'webhook delivery crashed');
        putBack(claim);
      })
      .finally(() => {
        inFlight.delete(claim.deliveryId);
        if (isRunning) schedule(0);
      });
    inFlight.set(claim.deliveryId, { controller, done });
    return done;
  }

  /** Puts back deliveries left `delivering` (putBack failed too) that no attempt of this process holds. */
  function requeueStale(now: Date): void {
    const startedBefore = new Date(now.getTime() - options.timeoutMs - STALE_CLAIM_MARGIN_MS);
    const requeued = store.requeueStale(startedBefore, [...inFlight.keys()]);
    if (requeued > 0) logger.warn({ requeued }, 'webhook deliveries left delivering are pending again');
  }

  function claimAndLaunch(): Promise<void>[] {
    if (isStopped) return [];
    const now = clock();
    requeueStale(now);
    return store.claimDue(now, options.concurrency - inFlight.size).map(launch);
  }

  function schedule(ms: number): void {
    if (!isRunning) return;
    const dueAt = Date.now() + ms;
    if (timer !== null && timer.dueAt <= dueAt) return;
    if (timer !== null) timers.clearTimeout(timer.handle);
    timer = { handle: timers.setTimeout(tick, ms), dueAt };
  }

  function tick(): void {
    timer = null;
    try {
      claimAndLaunch();
      if (inFlight.size >= options.concurrency) return; // a finishing attempt ticks again
      const next = store.nextDueAt();
      const untilDue = next === null ? options.pollIntervalMs : next.getTime() - clock().getTime();
      schedule(Math.max(MIN_SLEEP_MS, Math.min(options.pollIntervalMs, untilDue)));
    } catch (error) {
      logger.error({ err: error }, 'webhook worker tick failed');
      schedule(options.pollIntervalMs);
    }
  }

  return {
    start() {
      if (isRunning || isStopped) return;
      const recovered = store.recoverInterrupted(clock());
      if (recovered > 0)
        logger.info({ recovered }, 'webhook deliveries interrupted by a restart are pending again');
      isRunning = true;
      schedule(0);
    },
    notify() {
      schedule(0);
    },
    async runOnce() {
      const launched = claimAndLaunch();
      await Promise.all(launched);
      return launched.length;
    },
    async stop() {
      isStopped = true;
      isRunning = false;
      if (timer !== null) timers.clearTimeout(timer.handle);
      timer = null;
      const running = [...inFlight.values()];
      for (const { controller } of running) controller.abort();
      await Promise.all(running.map((r) => r.done));
    },
  };
}
