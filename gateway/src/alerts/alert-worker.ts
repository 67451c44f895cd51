import {
  type AttemptResult,
  checkUrlAddress,
  createWebhookHeaders,
  decideOutcome,
  type LookupHost,
  type RetryPolicy,
  type SendWebhook,
} from '@keygate/webhooks';
import type { Logger } from 'pino';
import type { AlertClaim, AlertStore } from '../model/alert-store.ts';

export interface AlertWorkerOptions extends RetryPolicy {
  /** Deadline of one request, connection to the end of the (≤ 1 KiB) response. */
  timeoutMs: number;
  /** Most attempts this instance runs at once. */
  concurrency: number;
  /** How often the outbox is looked at when nothing woke the worker. */
  pollIntervalMs: number;
  allowPrivateAddresses: boolean;
}

/** The alert delivery worker of one instance: at least once, each delivery attempted by one instance at a time. */
export interface AlertWorker {
  start(): void;
  /** Looks at the outbox soon (an event was recorded here). */
  notify(): void;
  /** Claims what is due and delivers it; resolves with how many attempts ran. */
  runOnce(): Promise<number>;
  /** Stops claiming and waits for attempts in flight (their leases end; another look takes them). */
  stop(): Promise<void>;
}

const NO_ANSWER: AttemptResult = {
  statusCode: null,
  durationMs: 0,
  response: null,
  responseTruncated: false,
  retryAfter: null,
  error: null,
};

/**
 * The lease a claim holds beyond the request deadline: an instance killed mid-delivery leaves its
 * delivery `delivering`, and any instance (itself after a restart) takes it again once this ends.
 */
export const LEASE_MARGIN_MS = 5_000;

/** Finished deliveries are kept this long, as commerce keeps its webhooks' by default. */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
/** How often parked alert events are looked for: only a crash right after a commit leaves some. */
export const RELAY_EVERY_MS = 30_000;
const PRUNE_BATCH = 1000;

export function createAlertWorker(deps: {
  store: AlertStore;
  send: SendWebhook;
  options: AlertWorkerOptions;
  logger: Logger;
  lookupHost: LookupHost;
  clock?: () => number;
  random?: () => number;
  /** Counts attempts by result (metrics). */
  onAttempt?(result: 'succeeded' | 'failed'): void;
  /** How long finished deliveries are kept (default 30 days, as commerce's); pruned hourly. */
  retentionMs?: number;
  /**
   * Moves alert events parked by key commits into the outbox (KeyStore.relayAlerts): run at start
   * and every RELAY_EVERY_MS, for the events whose committing instance died before relaying them.
   */
  relay?: () => Promise<number>;
}): AlertWorker {
  const { store, options, logger } = deps;
  const clock = deps.clock ?? Date.now;
  const random = deps.random ?? Math.random;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let ticking: Promise<number> | null = null;
  let pruning: NodeJS.Timeout | null = null;
  let relaying: NodeJS.Timeout | null = null;
  const retentionMs = deps.retentionMs ?? DELIVERY_RETENTION_MS;

  /** Deletes finished deliveries past retention, a batch at a time (any instance may; each batch is atomic). */
  async function prune(): Promise<void> {
    try {
      while ((await store.pruneFinished(clock() - retentionMs, PRUNE_BATCH)) === PRUNE_BATCH && running) {}
    } catch (error) {
      logger.error({ err: error }, 'alert deliveries not pruned; the next hour tries again');
    }
  }

  async function relay(): Promise<void> {
    try {
      if (((await deps.relay?.()) ?? 0) > 0) schedule(0);
    } catch (error) {
      logger.error({ err: error }, 'parked alert events not relayed; the next relay tries again');
    }
  }

  async function attempt(claim: AlertClaim): Promise<AttemptResult> {
    const url = new URL(claim.url);
    const check = await checkUrlAddress(url, {
      allowPrivate: options.allowPrivateAddresses,
      lookupHost: deps.lookupHost,
    });
    if (!check.ok) {
      logger.warn({ deliveryId: claim.deliveryId, detail: check.detail }, 'alert target refused');
      return { ...NO_ANSWER, error: `refused: ${check.reason}` };
    }
    const message = { id: claim.deliveryId, timestamp: claim.webhookTimestamp, body: claim.body };
    return deps.send({
      url,
      target: check.target,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'keygate-alerts/1.0',
        ...createWebhookHeaders(claim.secrets, message),
      },
      body: claim.body,
      timeoutMs: options.timeoutMs,
      signal: new AbortController().signal,
    });
  }

  async function deliver(claimed: AlertClaim): Promise<void> {
    // Receivers compare webhook-timestamp with their own clock: it is always the wall clock's.
    const claim = { ...claimed, webhookTimestamp: Math.floor(Date.now() / 1000) };
    const startedAt = new Date(clock()).toISOString();
    const result = await attempt(claim).catch(
      (error: unknown): AttemptResult => ({ ...NO_ANSWER, error: `failed before sending: ${String(error)}` }),
    );
    const now = new Date(clock());
    const outcome = decideOutcome({
      result,
      scheduleStep: claim.scheduleStep,
      failingSince: claim.failingSince === null ? null : new Date(claim.failingSince),
      now,
      policy: options,
      random,
    });
    const stored = await store.completeAttempt(
      claim,
      {
        startedAt,
        webhookTimestamp: claim.webhookTimestamp,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        response: result.response,
        error: result.error,
      },
      outcome,
      now,
    );
    deps.onAttempt?.(outcome.status === 'succeeded' ? 'succeeded' : 'failed');
    const log = { deliveryId: claim.deliveryId, endpointId: claim.endpointId, eventType: claim.eventType };
    if (!stored) logger.warn(log, 'alert attempt outlived its lease; another instance took the delivery');
    else if (outcome.status !== 'succeeded')
      logger.warn(
        {
          ...log,
          status: result.statusCode,
          error: result.error,
          next: outcome.nextAttemptAt?.toISOString() ?? null,
        },
        'alert attempt failed',
      );
  }

  async function tick(): Promise<number> {
    const free = options.concurrency - inFlight.size;
    const claims = await store.claimDue(clock(), free, options.timeoutMs + LEASE_MARGIN_MS);
    for (const claim of claims) {
      const done: Promise<void> = deliver(claim)
        .catch((error: unknown) =>
          logger.error({ err: error, deliveryId: claim.deliveryId }, 'alert delivery crashed'),
        )
        .finally(() => {
          inFlight.delete(done);
          if (running) schedule(0);
        });
      inFlight.add(done);
    }
    return claims.length;
  }

  /** One look at a time: a look asked for while one runs waits for it, then runs. */
  function look(): Promise<number> {
    const previous = ticking ?? Promise.resolve(0);
    const next = previous.then(tick, tick);
    // The caller handles `next`'s failure; the chain kept for the next look must not reject unheard
    // (an unhandled rejection ends the process, e.g. while a Redis Cluster fails over).
    ticking = next
      .catch(() => 0)
      .finally(() => {
        if (ticking === guarded) ticking = null;
      });
    const guarded = ticking;
    return next;
  }

  function schedule(ms: number): void {
    if (!running) return;
    if (timer !== null) {
      if (ms > 0) return;
      clearTimeout(timer);
    }
    timer = setTimeout(() => {
      timer = null;
      look()
        .catch((error: unknown) => logger.error({ err: error }, 'alert worker look failed'))
        .finally(() => schedule(options.pollIntervalMs));
    }, ms).unref();
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
      pruning = setInterval(() => void prune(), PRUNE_EVERY_MS).unref();
      if (deps.relay) {
        void relay();
        relaying = setInterval(() => void relay(), RELAY_EVERY_MS).unref();
      }
    },
    notify: () => schedule(0),
    async runOnce() {
      const count = await look();
      await Promise.all(inFlight);
      return count;
    },
    async stop() {
      running = false;
      if (pruning !== null) clearInterval(pruning);
      if (relaying !== null) clearInterval(relaying);
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await ticking?.catch(() => 0);
      await Promise.all(inFlight);
    },
  };
}
