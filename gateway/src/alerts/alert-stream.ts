import type { Request, Response } from 'express';
import { principalOf } from '../auth/principal.ts';
import type { AlertStore } from '../model/alert-store.ts';

/** Events read per look at most; the rest follow on the next. */
const BATCH = 100;

/**
 * `GET /v2/auth/alert-events:stream`: the alerts of the calling key's environment as server-sent
 * events, in the order the outbox recorded them: `id: <position>`, `event: <type>`, `data: <the
 * envelope every delivery sends>` (its `id` is the event's). `Last-Event-ID` resumes after a
 * position; without it the stream starts with the next alert. The sandbox CLI's `listen` forwards
 * them to a laptop as it does commerce's webhooks.
 */
export function createAlertStreamHandler(deps: { store: AlertStore; pollMs?: number; heartbeatMs?: number }) {
  const pollMs = deps.pollMs ?? 250;
  const heartbeatMs = deps.heartbeatMs ?? 15_000;
  return async (req: Request, res: Response): Promise<void> => {
    const environment = principalOf(res).key.environment;
    const lastEventId = req.headers['last-event-id'];
    let cursor =
      typeof lastEventId === 'string' && lastEventId !== ''
        ? lastEventId
        : await deps.store.latestEventCursor();
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 1000\n\n');
    let busy = false;
    const poll = async () => {
      if (busy || res.destroyed) return;
      busy = true;
      try {
        const events = await deps.store.listEvents(cursor, BATCH);
        let text = '';
        for (const event of events) {
          cursor = event.cursor;
          const envelope = JSON.parse(event.body) as { environment?: string | null };
          if (envelope.environment === environment)
            text += `id: ${event.cursor}\nevent: ${event.type}\ndata: ${event.body}\n\n`;
        }
        if (text !== '') res.write(text);
      } catch {
        // The store is away: the next look tries again; the client keeps its position.
      } finally {
        busy = false;
      }
    };
    const polling = setInterval(() => void poll(), pollMs);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), heartbeatMs);
    res.on('close', () => {
      clearInterval(polling);
      clearInterval(heartbeat);
    });
  };
}
