import type { Environment } from '@keygate/identity';
import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import type { CommerceDatabase } from '../db/database.ts';
import { CommerceError } from '../errors.ts';

export interface EventStreamOptions {
  db: CommerceDatabase;
  environment: Environment;
  /** How often (ms) the outbox is read for new events (default 250). */
  pollMs?: number;
  /** How often (ms) a comment line keeps an idle stream open through proxies (default 15 s). */
  heartbeatMs?: number;
}

interface EventRow {
  seq: number;
  id: string;
  type: string;
  body: string;
}

/** Events read per poll at most; the rest follow on the next turn. */
const BATCH = 100;

/**
 * `GET /v2/webhooks/events:stream` (scope webhook:r, test environment only): the test environment's
 * events as server-sent events, in the order the outbox recorded them, each as `id: evt_…`,
 * `event: <type>` and `data: <the envelope every delivery sends>`. A client that reconnects with
 * `Last-Event-ID` gets every event recorded after that one, none twice; one the outbox no longer holds
 * (pruned, or dropped by a sandbox reset) resumes from the oldest event it holds. Without the header
 * the stream starts with the next event recorded. The sandbox CLI's `listen` forwards them.
 */
export function createEventStreamRouter(options: EventStreamOptions): Router {
  const { db, environment } = options;
  const pollMs = options.pollMs ?? 250;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const readAfter = db.sqlite.prepare<[number, number], EventRow>(
    'SELECT rowid AS seq, id, type, body FROM webhook_events WHERE rowid > ? ORDER BY rowid LIMIT ?',
  );
  const seqOf = db.sqlite.prepare<[string], { seq: number }>(
    'SELECT rowid AS seq FROM webhook_events WHERE id = ?',
  );
  const lastSeq = db.sqlite.prepare<[], { seq: number | null }>(
    'SELECT max(rowid) AS seq FROM webhook_events',
  );

  const router = Router();
  router.get('/v2/webhooks/events\\:stream', requireScope('webhook:r'), (req, res) => {
    if (environment !== 'test') {
      throw new CommerceError(
        'SANDBOX_ONLY',
        'The event stream is for the test environment only: use a test key (kg_test_…).',
      );
    }
    const lastEventId = req.headers['last-event-id'];
    let cursor =
      typeof lastEventId === 'string' && lastEventId !== ''
        ? (seqOf.get(lastEventId)?.seq ?? 0)
        : (lastSeq.get()?.seq ?? 0);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    // Tells EventSource clients how long to wait before reconnecting.
    res.write('retry: 1000\n\n');

    let busy = false;
    const poll = () => {
      if (busy || res.destroyed) return;
      // A reset empties the outbox: its rowids start again below the cursor.
      if ((lastSeq.get()?.seq ?? 0) < cursor) cursor = 0;
      const rows = readAfter.all(cursor, BATCH);
      if (rows.length === 0) return;
      let text = '';
      for (const row of rows) text += `id: ${row.id}\nevent: ${row.type}\ndata: ${row.body}\n\n`;
      cursor = rows.at(-1)!.seq;
      if (!res.write(text)) {
        // Wait for the client to take what was sent before reading more.
        busy = true;
        res.once('drain', () => {
          busy = false;
        });
      }
    };
    const polling = setInterval(poll, pollMs);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), heartbeatMs);
    poll();
    res.on('close', () => {
      clearInterval(polling);
      clearInterval(heartbeat);
    });
  });
  return router;
}
