import assert from 'node:assert/strict';
import { fingerprintRequest, IDEMPOTENCY_LEASE_MS, runningRecord } from '@keygate/contracts/idempotency';
import { createIdempotencyPruner } from '../../src/idempotency/prune-records.ts';
import { createSqliteIdempotencyStore } from '../../src/idempotency/sqlite-idempotency-store.ts';
import type { EventOutbox } from '../../src/webhooks/outbox.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function count(t: TestApp, table: string): number {
  return (t.db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** A clock tests move by hand. */
function manualClock() {
  let now = TEST_NOW.getTime();
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

async function cartWithItem(t: TestApp, keyId = 'key_test'): Promise<string> {
  t.db.sqlite.exec("UPDATE stock SET on_hand = 10, allocated = 0 WHERE product_id = 'prd_00002'");
  const cart = await t.post('/v2/carts', { channel: 'WEB_DE' }, { keyId });
  assert.equal(cart.status, 201, cart.text);
  const item = await t.post(`/v2/carts/${cart.body.id}/items`, { sku: 'KG-00002', qty: 2 }, { keyId });
  assert.equal(item.status, 200, item.text);
  return cart.body.id;
}

const key = (value: string) => ({ headers: { 'Idempotency-Key': value } });

describe('Idempotency-Key (commerce)', () => {
  let t: TestApp;
  let time: ReturnType<typeof manualClock>;
  beforeEach(async () => {
    time = manualClock();
    t = await createTestApp({
      clock: time.clock,
      webhooks: {
        allowPrivateAddresses: true,
        lookupHost: async () => [{ address: '127.0.0.1', family: 4 }],
      },
    });
  });
  afterEach(() => t.close());

  describe('POST /v2/carts sent twice with the same key and body', () => {
    it('makes one cart and answers the retry with the first answer, marked replayed', async () => {
      const first = await t.post('/v2/carts', { channel: 'WEB_DE' }, key('k-cart-1'));
      const again = await t.post('/v2/carts', { channel: 'WEB_DE' }, key('k-cart-1'));
      assert.equal(first.status, 201, first.text);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      assert.equal(again.status, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.location, first.headers.location);
      assert.match(String(again.headers['content-type']), /^application\/json/);
      assert.equal(count(t, 'carts'), 1);
    });
  });

  describe('POST /v2/stock/{sku}:adjust retried with the same key', () => {
    it('applies the delta once', async () => {
      const before = (await t.get('/v2/stock/KG-00002')).body.onHand as number;
      const first = await t.post('/v2/stock/KG-00002:adjust', { delta: 5 }, key('k-adjust'));
      const again = await t.post('/v2/stock/KG-00002:adjust', { delta: 5 }, key('k-adjust'));
      assert.equal(first.status, 200, first.text);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.body, first.body);
      assert.equal((await t.get('/v2/stock/KG-00002')).body.onHand, before + 5);
    });
  });

  describe('the other POST and PATCH routes', () => {
    it('each replay their first answer to a retry with the same key', async () => {
      const customer = await t.post('/v2/customers', { name: 'Ivo' }, key('k-customer'));
      const endpoint = await t.post(
        '/v2/webhooks/endpoints',
        { url: 'https://hooks.example.com/in', eventTypes: ['order.created'] },
        key('k-endpoint'),
      );
      const cartId = await cartWithItem(t);
      const order = await t.post(`/v2/carts/${await cartWithItem(t)}:checkout`);
      const calls: Array<[string, 'post' | 'patch', string, unknown]> = [
        ['customer update', 'patch', `/v2/customers/${customer.body.id}`, { name: 'Ivo B.' }],
        ['cart item update', 'patch', `/v2/carts/${cartId}/items/KG-00002`, { qty: 1 }],
        ['order cancel', 'post', `/v2/orders/${order.body.id}:cancel`, undefined],
        ['endpoint update', 'patch', `/v2/webhooks/endpoints/${endpoint.body.id}`, { description: 'x' }],
        ['endpoint secret rotation', 'post', `/v2/webhooks/endpoints/${endpoint.body.id}:rotate-secret`, {}],
        ['endpoint test', 'post', `/v2/webhooks/endpoints/${endpoint.body.id}:test`, undefined],
        [
          'price',
          'post',
          '/v2/prices',
          { sku: 'KG-00002', channel: 'WEB_DE', level: 'base', amount: 999, minQuantity: 50 },
        ],
      ];
      for (const [name, method, path, body] of calls) {
        const firstCall = await t[method](path, body, key(`k-${name.replaceAll(' ', '-')}`));
        const again = await t[method](path, body, key(`k-${name.replaceAll(' ', '-')}`));
        assert.ok(firstCall.status < 300, `${name}: ${firstCall.status} ${firstCall.text}`);
        assert.equal(again.status, firstCall.status, name);
        assert.equal(again.headers['idempotent-replayed'], 'true', name);
        assert.deepEqual(again.body, firstCall.body, name);
      }
    });
  });

  describe('without a key', () => {
    it('runs every time, as before', async () => {
      await t.post('/v2/carts', { channel: 'WEB_DE' });
      await t.post('/v2/carts', { channel: 'WEB_DE' });
      assert.equal(count(t, 'carts'), 2);
    });
  });

  describe('POST /v2/carts/{id}:checkout retried with the same key', () => {
    it('places one order, allocates once, and answers the retry with that order', async () => {
      const cartId = await cartWithItem(t);
      const first = await t.post(`/v2/carts/${cartId}:checkout`, undefined, key('k-checkout'));
      const again = await t.post(`/v2/carts/${cartId}:checkout`, undefined, key('k-checkout'));
      assert.equal(first.status, 201, first.text);
      assert.equal(again.status, 201, again.text);
      assert.equal(again.body.id, first.body.id);
      assert.equal(again.headers.location, `/v2/orders/${first.body.id}`);
      assert.equal(count(t, 'orders'), 1);
      assert.equal((await t.get('/v2/stock/KG-00002')).body.allocated, 2);
    });
    it('answers a retry without the key 409 CART_CHECKED_OUT, as the issue saw it', async () => {
      const cartId = await cartWithItem(t);
      await t.post(`/v2/carts/${cartId}:checkout`);
      assertProblem(await t.post(`/v2/carts/${cartId}:checkout`), 409, 'CART_CHECKED_OUT');
    });
  });

  describe('the same key with another request', () => {
    it('answers 422 IDEMPOTENCY_KEY_REUSED for another body and changes nothing', async () => {
      await t.post('/v2/carts', { channel: 'WEB_DE' }, key('k-reuse'));
      assertProblem(
        await t.post('/v2/carts', { channel: 'WEB_CH' }, key('k-reuse')),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
      assert.equal(count(t, 'carts'), 1);
    });
    it('answers 422 for another path or method too', async () => {
      const cart = await t.post('/v2/carts', { channel: 'WEB_DE' }, key('k-path'));
      assertProblem(
        await t.post('/v2/customers', { name: 'Ivo' }, key('k-path')),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
      assertProblem(
        await t.patch(`/v2/carts/${cart.body.id}/items/KG-00002`, { qty: 1 }, key('k-path')),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
      assert.equal(count(t, 'customers'), (await createSeedCounts()).customers);
    });
    it('compares the body byte for byte: the same JSON spelled otherwise is another request', async () => {
      await t.post('/v2/carts', '{"channel":"WEB_DE"}', key('k-bytes'));
      assertProblem(
        await t.post('/v2/carts', '{ "channel": "WEB_DE" }', key('k-bytes')),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
    });
  });

  describe('a key still held by a request in flight', () => {
    it('answers 409 IDEMPOTENCY_KEY_IN_USE with Retry-After until the first answers, then replays it', async () => {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const slow = await createTestApp({
        clock: time.clock,
        webhooks: {
          allowPrivateAddresses: true,
          lookupHost: async () => {
            await gate;
            return [{ address: '127.0.0.1', family: 4 }];
          },
        },
      });
      try {
        const body = { url: 'http://hooks.example/in', eventTypes: ['order.created'] };
        const first = slow.post('/v2/webhooks/endpoints', body, key('k-slow'));
        await new Promise((resolve) => setTimeout(resolve, 50));
        const duplicate = await slow.post('/v2/webhooks/endpoints', body, key('k-slow'));
        const problem = assertProblem(duplicate, 409, 'IDEMPOTENCY_KEY_IN_USE');
        assert.ok(Number(duplicate.headers['retry-after']) >= 1);
        assert.equal(problem.retryAfter, Number(duplicate.headers['retry-after']));
        release();
        const answered = await first;
        assert.equal(answered.status, 201, answered.text);
        const retried = await slow.post('/v2/webhooks/endpoints', body, key('k-slow'));
        assert.equal(retried.headers['idempotent-replayed'], 'true');
        assert.equal(retried.body.id, answered.body.id);
        assert.equal(count(slow, 'webhook_endpoints'), 1);
      } finally {
        release();
        slow.close();
      }
    });
    it('runs again once the lease of a request whose process died has lapsed', async () => {
      const store = createSqliteIdempotencyStore(t.db);
      const fingerprint = fingerprintRequest('POST', '/v2/carts', '{"channel":"WEB_DE"}');
      store.write('key_test', 'k-crashed', runningRecord(fingerprint, time.clock().getTime()));
      assertProblem(
        await t.post('/v2/carts', { channel: 'WEB_DE' }, key('k-crashed')),
        409,
        'IDEMPOTENCY_KEY_IN_USE',
      );
      time.advance(IDEMPOTENCY_LEASE_MS + 1);
      const res = await t.post('/v2/carts', { channel: 'WEB_DE' }, key('k-crashed'));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers['idempotent-replayed'], undefined);
    });
  });

  describe('after 24 hours', () => {
    it('forgets the key: the same request runs again, and the pruner deletes the old record', async () => {
      const first = await t.post('/v2/carts', { channel: 'WEB_DE' }, key('k-day'));
      time.advance(DAY_MS - 1);
      assert.equal((await t.post('/v2/carts', { channel: 'WEB_DE' }, key('k-day'))).body.id, first.body.id);
      time.advance(1);
      assert.equal(
        await createIdempotencyPruner({
          store: createSqliteIdempotencyStore(t.db),
          clock: time.clock,
          onError: (error) => assert.fail(String(error)),
        }).runOnce(),
        1,
      );
      const later = await t.post('/v2/carts', { channel: 'WEB_DE' }, key('k-day'));
      assert.equal(later.status, 201);
      assert.notEqual(later.body.id, first.body.id);
      assert.equal(count(t, 'carts'), 2);
    });
  });

  describe('a 5xx answer', () => {
    it('is not kept: the effect is undone and the retry with the same key runs again', async () => {
      let failures = 1;
      const flaky = await createTestApp({
        clock: time.clock,
        wrapOutbox: (outbox: EventOutbox): EventOutbox => ({
          record(type, data) {
            const recorded = outbox.record(type, data);
            if (type === 'order.created' && failures-- > 0) throw new Error('injected failure');
            return recorded;
          },
          recordTest: (endpointId, data) => outbox.recordTest(endpointId, data),
        }),
      });
      try {
        const cartId = await cartWithItem(flaky);
        assertProblem(
          await flaky.post(`/v2/carts/${cartId}:checkout`, undefined, key('k-5xx')),
          500,
          'INTERNAL_ERROR',
        );
        assert.equal(count(flaky, 'orders'), 0);
        const retried = await flaky.post(`/v2/carts/${cartId}:checkout`, undefined, key('k-5xx'));
        assert.equal(retried.status, 201, retried.text);
        assert.equal(retried.headers['idempotent-replayed'], undefined);
        assert.equal(count(flaky, 'orders'), 1);
      } finally {
        flaky.close();
      }
    });
  });

  describe('a 4xx answer', () => {
    it('is kept: the retry gets the same refusal even after the cause went away', async () => {
      const cart = await t.post('/v2/carts', { channel: 'WEB_DE' });
      const path = `/v2/carts/${cart.body.id}:checkout`;
      assertProblem(await t.post(path, undefined, key('k-empty')), 422, 'CART_EMPTY');
      await t.post(`/v2/carts/${cart.body.id}/items`, { sku: 'KG-00002', qty: 1 });
      const again = assertProblem(await t.post(path, undefined, key('k-empty')), 422, 'CART_EMPTY');
      assert.equal(again.code, 'CART_EMPTY');
      assert.equal(count(t, 'orders'), 0);
    });
    it('except a refusal of the caller (403 missing scope): nothing ran, so a retry with the scope runs', async () => {
      const refused = await t.post(
        '/v2/customers',
        { name: 'Ivo' },
        { ...key('k-scope'), scopes: ['order:rw'] },
      );
      assertProblem(refused, 403, 'INSUFFICIENT_SCOPE');
      const res = await t.post('/v2/customers', { name: 'Ivo' }, key('k-scope'));
      assert.equal(res.status, 201, res.text);
    });
  });

  describe('two API keys using the same idempotency key', () => {
    it('never see each other’s records', async () => {
      const a = await t.post('/v2/carts', { channel: 'WEB_DE' }, { ...key('shared'), keyId: 'key_a' });
      const b = await t.post('/v2/carts', { channel: 'WEB_DE' }, { ...key('shared'), keyId: 'key_b' });
      const c = await t.post('/v2/carts', { channel: 'WEB_CH' }, { ...key('shared'), keyId: 'key_c' });
      assert.equal(b.status, 201);
      assert.equal(b.headers['idempotent-replayed'], undefined);
      assert.notEqual(b.body.id, a.body.id);
      assert.equal(c.status, 201, c.text);
      assert.equal(count(t, 'carts'), 3);
    });
  });

  describe('a malformed key', () => {
    const malformed: Array<[string, string]> = [
      ['256 characters', 'k'.repeat(256)],
      ['a space', 'two words'],
      ['a non-ASCII character', 'schlüssel'],
    ];
    for (const [name, value] of malformed) {
      it(`answers 400 MALFORMED_IDEMPOTENCY_KEY for ${name} and changes nothing`, async () => {
        const res = await t.post('/v2/carts', { channel: 'WEB_DE' }, key(value));
        assertProblem(res, 400, 'MALFORMED_IDEMPOTENCY_KEY');
        assert.equal(count(t, 'carts'), 0);
      });
    }
    it('accepts 255 visible ASCII characters', async () => {
      const res = await t.post('/v2/carts', { channel: 'WEB_DE' }, key('~'.repeat(255)));
      assert.equal(res.status, 201, res.text);
    });
  });

  describe('the change and its kept answer', () => {
    /** The statements from the change's INSERT to the next COMMIT or ROLLBACK. */
    async function statementsAfter(
      send: (t: TestApp) => Promise<unknown>,
      table: string,
      setup?: (t: TestApp) => Promise<void>,
    ) {
      const seen: string[] = [];
      let recording = false;
      const app = await createTestApp({
        clock: time.clock,
        onStatement: (sql) => recording && seen.push(sql.trim().split(/\s+/).slice(0, 3).join(' ')),
        webhooks: {
          allowPrivateAddresses: true,
          lookupHost: async () => [{ address: '127.0.0.1', family: 4 }],
        },
      });
      try {
        await setup?.(app);
        recording = true;
        await send(app);
        const from = seen.findIndex((sql) => sql.toLowerCase().startsWith(`insert into "${table}"`));
        assert.ok(from >= 0, seen.join('\n'));
        const to = seen.findIndex((sql, i) => i > from && /^(COMMIT|ROLLBACK)/.test(sql));
        return seen.slice(from, to + 1);
      } finally {
        app.close();
      }
    }
    it('commit together in one transaction: a checkout (synchronous handler)', async () => {
      let cartId = '';
      const run = await statementsAfter(
        (app) => app.post(`/v2/carts/${cartId}:checkout`, undefined, key('k-tx-1')),
        'orders',
        async (app) => {
          cartId = await cartWithItem(app);
        },
      );
      assert.ok(
        run.some((sql) => sql.startsWith('INSERT INTO idempotency_records')),
        run.join('\n'),
      );
      assert.equal(run.at(-1), 'COMMIT');
    });
    it('commit together in one transaction: a webhook endpoint (a handler that awaits its URL check)', async () => {
      const run = await statementsAfter(
        (app) =>
          app.post(
            '/v2/webhooks/endpoints',
            { url: 'http://hooks.example/in', eventTypes: ['order.created'] },
            key('k-tx-2'),
          ),
        'webhook_endpoints',
      );
      assert.ok(
        run.some((sql) => sql.startsWith('INSERT INTO idempotency_records')),
        run.join('\n'),
      );
      assert.equal(run.at(-1), 'COMMIT');
    });
  });

  describe('the GraphQL query (POST /v2/graphql)', () => {
    it('ignores the key: a read is safe to repeat and keeps no record', async () => {
      const query = { query: '{ channels { code } }' };
      const first = await t.post('/v2/graphql', query, key('k-graphql'));
      const again = await t.post('/v2/graphql', query, key('k-graphql'));
      assert.equal(first.status, 200, first.text);
      assert.equal(again.headers['idempotent-replayed'], undefined);
      assert.equal(count(t, 'idempotency_records'), 0);
    });
  });

  async function createSeedCounts() {
    const fresh = await createTestApp();
    try {
      return { customers: count(fresh, 'customers') };
    } finally {
      fresh.close();
    }
  }
});
