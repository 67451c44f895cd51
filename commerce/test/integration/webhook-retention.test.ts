import assert from 'node:assert/strict';
import { pino } from 'pino';
import { createWebhookRetention, type RetentionTimers } from '../../src/webhooks/retention.ts';
import { createSqliteDeliveryStore } from '../../src/webhooks/sqlite-delivery-store.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { createWebhookHarness, type WebhookHarness } from '../support/webhooks.ts';

const DAYS = 86_400_000;
const RETENTION_DAYS = 30;

describe('webhook retention', () => {
  let h: WebhookHarness;
  let ok: Receiver;
  let failing: Receiver;

  beforeEach(async () => {
    h = await createWebhookHarness();
    ok = await startReceiver(() => ({}));
    failing = await startReceiver(() => ({ status: 500 }));
    h.db.sqlite.exec("UPDATE stock SET on_hand = 100, allocated = 0 WHERE product_id = 'prd_00002'");
  });
  afterEach(async () => {
    await h.shutdown();
    await ok.close();
    await failing.close();
  });

  const retentionOf = (options: { batchSize?: number; timers?: RetentionTimers } = {}) =>
    createWebhookRetention({
      store: createSqliteDeliveryStore(h.db),
      retentionMs: RETENTION_DAYS * DAYS,
      clock: h.clock,
      logger: pino({ level: 'silent' }),
      ...options,
    });

  async function changeStock(onHand: number) {
    const res = await h.put('/v2/stock/KG-00002', { onHand });
    assert.equal(res.status, 200, res.text);
  }

  const count = (table: string) =>
    (h.db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const counts = () => ({
    events: count('webhook_events'),
    deliveries: count('webhook_deliveries'),
    attempts: count('webhook_attempts'),
  });

  it('deletes finished events past the period with their deliveries and attempts, and keeps the rest', async () => {
    await changeStock(50); // no endpoint yet: an event without deliveries
    const delivered = await h.createEndpoint({ url: ok.url, eventTypes: ['stock.updated'] });
    await changeStock(60); // delivered: succeeded
    assert.equal(await h.drain(), 1);
    const [oldDelivery] = (await h.get(`/v2/webhooks/endpoints/${delivered.id}/deliveries`)).body.data;
    await h.createEndpoint({ url: failing.url, eventTypes: ['stock.updated'] });
    await changeStock(70); // one delivery succeeds, the other keeps retrying (pending)
    await h.drain();
    assert.deepEqual(counts(), { events: 3, deliveries: 3, attempts: 3 });

    h.clock.advance((RETENTION_DAYS - 1) * DAYS);
    assert.equal(await retentionOf().runOnce(), 0, 'nothing is past the period yet');

    h.clock.advance(2 * DAYS);
    await changeStock(80); // a new event, inside the period
    await h.drain();
    const before = counts();
    assert.equal(await retentionOf().runOnce(), 2, 'the event nobody wanted and the delivered one');
    // Left: the old event whose delivery to the failing endpoint is unfinished (both of its
    // deliveries stay), and the new event.
    const after = counts();
    assert.equal(after.events, 2);
    assert.equal(before.deliveries - after.deliveries, 1);
    assert.equal(before.attempts - after.attempts, 1);
    const types = h.db.sqlite
      .prepare(
        `SELECT d.status FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE e.created_at < ? ORDER BY d.status`,
      )
      .all(new Date(h.clock().getTime() - RETENTION_DAYS * DAYS).toISOString()) as Array<{ status: string }>;
    assert.deepEqual(
      types.map((row) => row.status),
      ['pending', 'succeeded'],
    );

    const gone = await h.post(`/v2/webhooks/deliveries/${oldDelivery.id}:resend`);
    assert.equal(gone.status, 404);
    assert.equal(gone.headers['content-type'], 'application/problem+json');
    assert.equal(gone.body.status, 404);
    const listed = (await h.get(`/v2/webhooks/endpoints/${delivered.id}/deliveries`)).body.data;
    assert.ok(!listed.some((d: { id: string }) => d.id === oldDelivery.id));
  });

  it('works through a backlog a batch per transaction', async () => {
    for (let onHand = 1; onHand <= 7; onHand++) await changeStock(onHand);
    h.clock.advance((RETENTION_DAYS + 1) * DAYS);
    const store = createSqliteDeliveryStore(h.db);
    const batches: number[] = [];
    const retention = createWebhookRetention({
      store: {
        pruneFinished: (before, limit) => {
          const n = store.pruneFinished(before, limit);
          batches.push(n);
          return n;
        },
      },
      retentionMs: RETENTION_DAYS * DAYS,
      clock: h.clock,
      logger: pino({ level: 'silent' }),
      batchSize: 3,
    });
    assert.equal(await retention.runOnce(), 7);
    assert.deepEqual(batches, [3, 3, 1]);
    assert.equal(count('webhook_events'), 0);
  });

  it('runs a pass on start and on every interval until stopped', async () => {
    let tick: (() => void) | null = null;
    let cleared = false;
    const timers: RetentionTimers = {
      setInterval: (callback) => {
        tick = callback;
        return 1;
      },
      clearInterval: () => {
        cleared = true;
      },
    };
    await changeStock(10);
    h.clock.advance((RETENTION_DAYS + 1) * DAYS);
    const retention = retentionOf({ timers });
    retention.start();
    await retention.runOnce(); // joins the pass start() began
    assert.equal(count('webhook_events'), 0, 'pruned on start');
    await changeStock(20);
    h.clock.advance((RETENTION_DAYS + 1) * DAYS);
    assert.ok(tick);
    (tick as () => void)();
    await retention.runOnce();
    assert.equal(count('webhook_events'), 0, 'pruned on the interval');
    await retention.stop();
    assert.ok(cleared);
    await changeStock(30);
    h.clock.advance((RETENTION_DAYS + 1) * DAYS);
    assert.equal(await retention.runOnce(), 0, 'a stopped retention deletes nothing');
    assert.equal(count('webhook_events'), 1);
  });
});
