import assert from 'node:assert/strict';
import type { EventOutbox } from '../../src/webhooks/outbox.ts';
import { createSqliteOutbox } from '../../src/webhooks/sqlite-outbox.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/app.ts';
import { readEvents, readEventTypes } from '../support/events.ts';
import { assertProblem } from '../support/problem.ts';

const level = (onHand: number, allocated: number) => ({ onHand, allocated, available: onHand - allocated });

describe('events recorded by every emitting operation', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
    t.db.sqlite.exec("UPDATE stock SET on_hand = 10, allocated = 0 WHERE product_id = 'prd_00002'");
  });
  afterEach(() => t.close());

  describe('the envelope', () => {
    it('has an evt_ id, the type, the clock’s time, the environment and the data', async () => {
      await t.put('/v2/stock/KG-00002', { onHand: 11 });
      const [event] = readEvents(t.db, 'stock.updated');
      assert.ok(event);
      assert.match(event.id, /^evt_[A-Za-z0-9_-]{22}$/);
      assert.deepEqual(Object.keys(event), ['id', 'type', 'createdAt', 'environment', 'data']);
      assert.equal(event.type, 'stock.updated');
      assert.equal(event.createdAt, TEST_NOW.toISOString());
      assert.equal(event.environment, 'live');
    });
  });

  describe('stock', () => {
    it('PUT records stock.updated with old and new levels, and out_of_stock / back_in_stock on crossing zero', async () => {
      await t.put('/v2/stock/KG-00002', { onHand: 0 });
      await t.put('/v2/stock/KG-00002', { onHand: 0 });
      await t.put('/v2/stock/KG-00002', { onHand: 4 });
      assert.deepEqual(readEventTypes(t.db), [
        'stock.updated',
        'stock.out_of_stock',
        'stock.updated',
        'stock.back_in_stock',
      ]);
      const [toZero, toFour] = readEvents(t.db, 'stock.updated');
      assert.deepEqual(toZero?.data, {
        sku: 'KG-00002',
        productId: 'prd_00002',
        reason: 'set',
        orderId: null,
        old: level(10, 0),
        new: level(0, 0),
      });
      assert.deepEqual([toFour?.data.old, toFour?.data.new], [level(0, 0), level(4, 0)]);
      assert.deepEqual(readEvents(t.db, 'stock.out_of_stock')[0]?.data, toZero?.data);
      assert.deepEqual(readEvents(t.db, 'stock.back_in_stock')[0]?.data, toFour?.data);
    });
    it('an adjustment records stock.updated with reason adjusted', async () => {
      await t.post('/v2/stock/KG-00002:adjust', { delta: -3 });
      const [event] = readEvents(t.db, 'stock.updated');
      assert.deepEqual(
        [event?.data.reason, event?.data.old, event?.data.new],
        ['adjusted', level(10, 0), level(7, 0)],
      );
    });
  });

  describe('orders', () => {
    async function checkout(qty: number) {
      const cart = await t.post('/v2/carts', { channel: 'WEB_DE' });
      await t.post(`/v2/carts/${cart.body.id}/items`, { sku: 'KG-00002', qty });
      return t.post(`/v2/carts/${cart.body.id}:checkout`);
    }

    it('checkout records order.created with the order, then the stock allocation (and out_of_stock)', async () => {
      const order = await checkout(10);
      assert.deepEqual(readEventTypes(t.db), ['order.created', 'stock.updated', 'stock.out_of_stock']);
      assert.deepEqual(readEvents(t.db, 'order.created')[0]?.data, { order: order.body });
      const stock = readEvents(t.db, 'stock.updated')[0]?.data;
      assert.deepEqual(stock, {
        sku: 'KG-00002',
        productId: 'prd_00002',
        reason: 'order.placed',
        orderId: order.body.id,
        old: level(10, 0),
        new: level(10, 10),
      });
    });
    it('cancel records order.status_changed placed → cancelled and the released stock (back_in_stock)', async () => {
      const order = await checkout(10);
      const cancelled = await t.post(`/v2/orders/${order.body.id}:cancel`);
      assert.deepEqual(readEventTypes(t.db).slice(3), [
        'order.status_changed',
        'stock.updated',
        'stock.back_in_stock',
      ]);
      assert.deepEqual(readEvents(t.db, 'order.status_changed')[0]?.data, {
        orderId: order.body.id,
        oldStatus: 'placed',
        newStatus: 'cancelled',
        order: cancelled.body,
      });
      const released = readEvents(t.db, 'stock.updated')[1]?.data;
      assert.deepEqual(
        [released?.reason, released?.old, released?.new],
        ['order.cancelled', level(10, 10), level(10, 0)],
      );
    });
    it('fulfil records order.status_changed placed → fulfilled and the shipped stock', async () => {
      const order = await checkout(4);
      await t.post(`/v2/orders/${order.body.id}:fulfil`);
      const [, shipped] = readEvents(t.db, 'stock.updated');
      assert.deepEqual(
        [shipped?.data.reason, shipped?.data.old, shipped?.data.new],
        ['order.fulfilled', level(10, 4), level(6, 0)],
      );
      const changed = readEvents(t.db, 'order.status_changed')[0]?.data;
      assert.deepEqual([changed?.oldStatus, changed?.newStatus], ['placed', 'fulfilled']);
    });
  });

  describe('customers', () => {
    it('record customer.created, customer.updated with old/new, and customer.tier_changed', async () => {
      const created = (await t.post('/v2/customers', { name: 'Hana', tier: 'retail' })).body;
      await t.patch(`/v2/customers/${created.id}`, { name: 'Hana H.' });
      const upgraded = (await t.patch(`/v2/customers/${created.id}`, { tier: 'silver' })).body;
      await t.patch(`/v2/customers/${created.id}`, { tier: 'silver', name: 'Hana H.' });
      assert.deepEqual(readEventTypes(t.db), [
        'customer.created',
        'customer.updated',
        'customer.updated',
        'customer.tier_changed',
      ]);
      assert.deepEqual(readEvents(t.db, 'customer.created')[0]?.data, { customer: created });
      const [rename, tier] = readEvents(t.db, 'customer.updated');
      assert.deepEqual(
        [rename?.data.changed, rename?.data.old.name, rename?.data.new.name],
        [['name'], 'Hana', 'Hana H.'],
      );
      assert.deepEqual(tier?.data.new, upgraded);
      assert.deepEqual(readEvents(t.db, 'customer.tier_changed')[0]?.data, {
        customerId: created.id,
        oldTier: 'retail',
        newTier: 'silver',
        customer: upgraded,
      });
    });
  });

  describe('pricing', () => {
    it('records pricing.price.created, .updated (old/new) and .deleted', async () => {
      const body = { sku: 'KG-00002', channel: 'WEB_DE', level: 'base', minQuantity: 100, amount: 500 };
      const created = (await t.post('/v2/prices', body)).body;
      const updated = (await t.put(`/v2/prices/${created.id}`, { amount: 450, minQuantity: 100 })).body;
      await t.put(`/v2/prices/${created.id}`, { amount: 450, minQuantity: 100 });
      await t.delete(`/v2/prices/${created.id}`);
      assert.deepEqual(readEventTypes(t.db), [
        'pricing.price.created',
        'pricing.price.updated',
        'pricing.price.deleted',
      ]);
      assert.deepEqual(readEvents(t.db, 'pricing.price.created')[0]?.data, { price: created });
      assert.deepEqual(readEvents(t.db, 'pricing.price.updated')[0]?.data, {
        priceId: created.id,
        old: created,
        new: updated,
      });
      assert.deepEqual(readEvents(t.db, 'pricing.price.deleted')[0]?.data, { price: updated });
    });
    it('records pricing.vat_rate.updated with the old rate (null for a new one) and the new one', async () => {
      await t.put('/v2/vat-rates/DE/reduced', { rateBp: 800 });
      await t.put('/v2/vat-rates/DE/reduced', { rateBp: 800 });
      await t.put('/v2/vat-rates/FR/standard', { rateBp: 2000 });
      assert.deepEqual(
        readEvents(t.db, 'pricing.vat_rate.updated').map((e) => e.data),
        [
          { country: 'DE', taxClass: 'reduced', old: { rateBp: 700 }, new: { rateBp: 800 } },
          { country: 'FR', taxClass: 'standard', old: null, new: { rateBp: 2000 } },
        ],
      );
    });
  });
});

describe('the transactional outbox', () => {
  /** An outbox that fails when asked to record `failOn`, after the real outbox wrote it. */
  function failingAfter(failOn: string) {
    return (outbox: EventOutbox): EventOutbox => ({
      record(type, data) {
        const recorded = outbox.record(type, data);
        if (type === failOn) throw new Error(`injected failure after recording ${type}`);
        return recorded;
      },
      recordTest: (endpointId, data) => outbox.recordTest(endpointId, data),
    });
  }

  function counts(t: TestApp) {
    const n = (sql: string) => (t.db.sqlite.prepare(sql).get() as { n: number }).n;
    return {
      events: n('SELECT count(*) AS n FROM webhook_events'),
      orders: n('SELECT count(*) AS n FROM orders'),
      allocated: n("SELECT allocated AS n FROM stock WHERE product_id = 'prd_00002'"),
      onHand: n("SELECT on_hand AS n FROM stock WHERE product_id = 'prd_00002'"),
      customers: n('SELECT count(*) AS n FROM customers'),
    };
  }

  describe('when the work fails after the change and its event were written', () => {
    it('keeps neither: a stock change and its event roll back together', async () => {
      const t = await createTestApp({ wrapOutbox: failingAfter('stock.updated') });
      try {
        const before = counts(t);
        assertProblem(await t.put('/v2/stock/KG-00002', { onHand: 77 }), 500, 'INTERNAL_ERROR');
        assert.deepEqual(counts(t), before);
      } finally {
        t.close();
      }
    });
    it('keeps neither: a checkout’s order, allocation, closed cart and order.created roll back together', async () => {
      const t = await createTestApp({ wrapOutbox: failingAfter('stock.updated') });
      try {
        t.db.sqlite.exec("UPDATE stock SET on_hand = 10, allocated = 0 WHERE product_id = 'prd_00002'");
        const cart = await t.post('/v2/carts', { channel: 'WEB_DE' });
        await t.post(`/v2/carts/${cart.body.id}/items`, { sku: 'KG-00002', qty: 2 });
        const before = counts(t);
        assertProblem(await t.post(`/v2/carts/${cart.body.id}:checkout`), 500, 'INTERNAL_ERROR');
        assert.deepEqual(counts(t), before);
        assert.equal((await t.get(`/v2/carts/${cart.body.id}`)).body.checkedOutAt, null);
      } finally {
        t.close();
      }
    });
    it('keeps neither: a new customer and customer.created roll back together', async () => {
      const t = await createTestApp({ wrapOutbox: failingAfter('customer.created') });
      try {
        const before = counts(t);
        assertProblem(await t.post('/v2/customers', { name: 'Ivo' }), 500, 'INTERNAL_ERROR');
        assert.deepEqual(counts(t), before);
      } finally {
        t.close();
      }
    });
  });

  describe('outside a transaction', () => {
    it('refuses to record (an event must commit with its change)', async () => {
      const t = await createTestApp();
      try {
        const outbox = createSqliteOutbox(t.db, { environment: 'live', clock: () => TEST_NOW });
        assert.throws(
          () =>
            outbox.record('customer.created', {
              customer: { id: 'c', name: 'n', tier: 'retail', createdAt: '', updatedAt: '' },
            }),
          /outside a transaction/,
        );
        assert.equal(counts(t).events, 0);
      } finally {
        t.close();
      }
    });
  });
});
