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
 * forwarded twice; a refused key (revoked, expired) ends the session with an error.
 */
export async function listen(options: ListenOptions): Promise<void> {
  const { target, forwardTo, events, out, err, signal } = options;
  const secret = options.secret ?? generateWebhookSecret();
  const reconnectMs = options.reconnectMs ?? 1000;
  out(
    `Ready. Forwarding test events to ${forwardTo}. Your webhook signing secret is ${secret} (Ctrl-C to quit)`,
  );
  let lastEventId: string | undefined;
  while (!signal?.aborted) {
    let res: Response;
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      res = await callApi(target, '/v2/webhooks/events:stream', { headers, signal });
    } catch (error) {
      if (signal?.aborted) return;
      err(`could not open the event stream (${(error as Error).message}); retrying`);
      await sleep(reconnectMs, undefined, { signal }).catch(() => {});
      continue;
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
        if (events === null || events.has(event.event)) await forward(event.id, event.event, event.data);
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
