import { setTimeout as sleep } from 'node:timers/promises';
import { createWebhookHeaders, generateWebhookSecret } from '@keygate/webhooks';
import { type ApiTarget, CliError, callApi, describeRefusal } from './api.ts';
import { readServerSentEvents } from './sse.ts';

export interface ListenOptions {
  target: ApiTarget;
  /** The local URL each event is POSTed to. */
  forwardTo: string;
  /** Event types to forward; null forwards every type. */
  events: ReadonlySet<string> | null;
  /** The session's signing secret (default: a fresh `whsec_…`, printed at start). */
  secret?: string;
  /** One line of output per event, and the start line. */
  out: (line: string) => void;
  /** Reconnects and refusals. */
  err: (line: string) => void;
  /** Ends the session (Ctrl-C). */
  signal?: AbortSignal;
  /** Wait before reconnecting (ms, default 1000). */
  reconnectMs?: number;
}

/** Statuses after which reconnecting cannot help: the key is refused. */
const FATAL = new Set([401, 403]);

/**
 * `listen --forward-to URL [--events a,b]`: opens the test environment's event stream through the
 * gateway and POSTs each event to the local URL, signed with a per-session secret as a real delivery
 * is (Standard Webhooks: `webhook-id` = the event id, `webhook-timestamp`, `webhook-signature`),
 * printing one line per event with the local answer's status and time. A lost stream (the gateway
 * restarted, the network went away) is opened again with `Last-Event-ID`, so no event is lost or
 * forwarded twice; a refused key (revoked, expired) ends the session with an error. The gateway's
 * alerts of the key's environment (`/v2/auth/alert-events:stream`) are forwarded the same way when the
 * key holds `auth:rw`.
 */
export async function listen(options: ListenOptions): Promise<void> {
  const { out, forwardTo } = options;
  const secret = options.secret ?? generateWebhookSecret();
  out(
    `Ready. Forwarding test events to ${forwardTo}. Your webhook signing secret is ${secret} (Ctrl-C to quit)`,
  );
  // A refused key ends the whole session: the other stream stops with it.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const session = { ...options, signal };
  try {
    await Promise.all([
      follow(session, secret, { path: '/v2/webhooks/events:stream', optional: false }),
      follow(session, secret, { path: ALERT_STREAM, optional: true }),
    ]);
  } finally {
    stop.abort();
  }
}

/** The gateway's own alerts (docs/alerts.md): forwarded beside commerce's events when the key may read them. */
const ALERT_STREAM = '/v2/auth/alert-events:stream';

/**
 * Follows one event stream until the session ends. An optional stream (the gateway's alerts, which
 * need `auth:rw`) that is refused or unknown is left with a note, not an error.
 */
async function follow(
  options: ListenOptions,
  secret: string,
  stream: { path: string; optional: boolean },
): Promise<void> {
  const { target, forwardTo, events, out, err, signal } = options;
  const reconnectMs = options.reconnectMs ?? 1000;
  let lastEventId: string | undefined;
  while (!signal?.aborted) {
    let res: Response;
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      res = await callApi(target, stream.path, { headers, signal });
    } catch (error) {
      if (signal?.aborted) return;
      err(`could not open the event stream (${(error as Error).message}); retrying`);
      await sleep(reconnectMs, undefined, { signal }).catch(() => {});
      continue;
    }
    if (stream.optional && (FATAL.has(res.status) || res.status === 404)) {
      err(`gateway alerts are not forwarded: ${await describeRefusal(res)} (they need a key with auth:rw)`);
      return;
    }
    if (FATAL.has(res.status))
      throw new CliError(`the event stream was refused: ${await describeRefusal(res)}`);
    if (!res.ok || !res.body) {
      err(`the event stream answered ${await describeRefusal(res)}; retrying`);
      await sleep(reconnectMs, undefined, { signal }).catch(() => {});
      continue;
    }
    try {
      for await (const event of readServerSentEvents(res.body)) {
        if (!event.id) continue;
        if (events === null || events.has(event.event)) {
          // An alert's position is not its id: the webhook-id is the event's own, as deliveries send it.
          const id = stream.optional
            ? ((JSON.parse(event.data) as { id?: string }).id ?? event.id)
            : event.id;
          await forward(id, event.event, event.data);
        }
        lastEventId = event.id;
      }
      if (!signal?.aborted) err('the event stream ended; reconnecting');
    } catch (error) {
      if (signal?.aborted) return;
      err(`the event stream broke off (${(error as Error).message}); reconnecting`);
    }
    await sleep(reconnectMs, undefined, { signal }).catch(() => {});
  }

  async function forward(id: string, type: string, body: string): Promise<void> {
    const message = { id, timestamp: Math.floor(Date.now() / 1000), body };
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'keygate-cli/listen',
      ...createWebhookHeaders(secret, message),
    };
    const started = performance.now();
    let outcome: string;
    try {
      const res = await fetch(forwardTo, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      outcome = String(res.status);
    } catch (error) {
      outcome = `failed (${(error as Error).message})`;
    }
    const ms = Math.round(performance.now() - started);
    out(`${new Date().toISOString()}  ${type}  ${id}  -> ${outcome} (${ms} ms)`);
  }
}
