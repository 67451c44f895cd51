import assert from 'node:assert/strict';
import { EVENT_TYPES } from '../../src/webhooks/event-catalogue.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { readEventTypes } from '../support/events.ts';
import { assertProblem } from '../support/problem.ts';

const TRIGGER = '/v2/webhooks/events:trigger';

/** Every table's row count but the outbox's, to see what a refused trigger left alone. */
function rowCounts(t: TestApp): Record<string, number> {
  const tables = ['orders', 'carts', 'customers', 'prices', 'vat_rates', 'webhook_events'];
  return Object.fromEntries(
    tables.map((table) => [
      table,
      (t.db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
    ]),
  );
}

describe('POST /v2/webhooks/events:trigger', () => {
  let t: TestApp;
  afterEach(() => t.close());

  describe('in the test environment', () => {
    beforeEach(async () => {
      t = await createTestApp({ environment: 'test' });
    });

    for (const type of EVENT_TYPES) {
      it(`${type}: makes a real change and answers the id of the ${type} event it recorded`, async () => {
        const res = await t.post(TRIGGER, { type });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.type, type);
        assert.match(res.body.eventId, /^evt_/);
        const row = t.db.sqlite
          .prepare('SELECT type, body FROM webhook_events WHERE id = ?')
          .get(res.body.eventId) as { type: string; body: string } | undefined;
        assert.equal(row?.type, type);
        assert.equal(JSON.parse(row!.body).environment, 'test');
      });
    }

    it('order.created places a real order, readable by the caller', async () => {
      const res = await t.post(TRIGGER, { type: 'order.created' });
      const event = t.db.sqlite
        .prepare('SELECT body FROM webhook_events WHERE id = ?')
        .get(res.body.eventId) as {
        body: string;
      };
      const orderId = JSON.parse(event.body).data.order.id as string;
      const order = await t.get(`/v2/orders/${orderId}`);
      assert.equal(order.status, 200);
      assert.equal(order.body.status, 'placed');
    });

    it('stock.back_in_stock leaves the stock level as it was', async () => {
      const before = await t.get('/v2/stock/KG-00001');
      await t.post(TRIGGER, { type: 'stock.back_in_stock' });
      const after = await t.get('/v2/stock/KG-00001');
      assert.deepEqual(after.body, before.body);
      assert.deepEqual(readEventTypes(t.db), [
        'stock.updated',
        'stock.out_of_stock',
        'stock.updated',
        'stock.back_in_stock',
      ]);
    });

    it('refuses an unknown type with 422 UNKNOWN_EVENT_TYPE and changes nothing', async () => {
      const before = rowCounts(t);
      const body = assertProblem(
        await t.post(TRIGGER, { type: 'order.exploded' }),
        422,
        'UNKNOWN_EVENT_TYPE',
      );
      assert.deepEqual(body.eventTypes, [...EVENT_TYPES]);
      assert.deepEqual(rowCounts(t), before);
    });

    it('refuses a body without type with 422', async () => {
      assertProblem(await t.post(TRIGGER, {}), 422, 'VALIDATION_FAILED');
    });

    it('needs webhook:rw', async () => {
      assertProblem(
        await t.post(TRIGGER, { type: 'order.created' }, { scopes: ['webhook:r'] }),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });
  });

  describe('in the live environment', () => {
    beforeEach(async () => {
      t = await createTestApp({ environment: 'live' });
    });

    it('answers 403 SANDBOX_ONLY and changes nothing', async () => {
      const before = rowCounts(t);
      assertProblem(await t.post(TRIGGER, { type: 'order.created' }), 403, 'SANDBOX_ONLY');
      assert.deepEqual(rowCounts(t), before);
    });
  });
});
