import assert from 'node:assert/strict';
import { decodeWebhookSecret } from '@keygate/webhooks';
import { EVENT_TYPES } from '../../src/webhooks/event-catalogue.ts';
import type { LookupHost } from '../../src/webhooks/url-policy.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

const BASE = '/v2/webhooks/endpoints';

function snapshot(t: TestApp): unknown {
  return ['webhook_endpoints', 'webhook_events', 'webhook_deliveries'].map((table) =>
    t.db.sqlite.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all(),
  );
}

/** Public names resolve to a documentation-free public address; `rebind.example` to loopback. */
const fakeDns: LookupHost = async (hostname) => {
  if (hostname === 'hooks.example.com') return [{ address: '93.184.216.34', family: 4 }];
  if (hostname === 'mixed.example.com') {
    return [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
  }
  if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
};

describe('webhook endpoints API', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ webhooks: { allowPrivateAddresses: false, lookupHost: fakeDns } });
  });
  afterEach(() => t.close());

  describe('POST /v2/webhooks/endpoints', () => {
    it('creates an enabled endpoint and shows its whsec_ secret once', async () => {
      const res = await t.post(BASE, {
        url: 'https://hooks.example.com/keygate',
        description: 'ERP',
        eventTypes: ['order.created', 'stock.updated', 'order.created'],
      });
      assert.equal(res.status, 201, res.text);
      assert.match(res.body.id, /^whe_/);
      assert.equal(res.headers.location, `${BASE}/${res.body.id}`);
      assert.match(res.body.secret, /^whsec_/);
      assert.equal(decodeWebhookSecret(res.body.secret).length, 32);
      const { secret, ...shown } = res.body;
      assert.deepEqual(shown, {
        id: res.body.id,
        url: 'https://hooks.example.com/keygate',
        description: 'ERP',
        eventTypes: ['order.created', 'stock.updated'],
        enabled: true,
        disabledReason: null,
        secretRotation: null,
        failingSince: null,
        createdByKeyId: 'key_test',
        createdAt: TEST_NOW.toISOString(),
        updatedAt: TEST_NOW.toISOString(),
      });
      const read = await t.get(`${BASE}/${res.body.id}`, { scopes: ['webhook:r'] });
      assert.deepEqual(read.body, shown);
      assert.ok(!read.text.includes(secret), 'the secret is never shown again');
      const list = await t.get(BASE, { scopes: ['webhook:r'], keyId: 'key_other' });
      assert.deepEqual(list.body.data, [shown], 'endpoints are environment-wide, not per key');
      assert.ok(!list.text.includes(secret));
    });

    describe('with bad input', () => {
      const refusals: Array<[string, unknown, string, string]> = [
        ['an invalid URL', { url: 'not a url' }, 'VALIDATION_FAILED', '/url'],
        ['an ftp:// URL', { url: 'ftp://hooks.example.com/x' }, 'VALIDATION_FAILED', '/url'],
        ['credentials in the URL', { url: 'https://u:p@hooks.example.com/' }, 'VALIDATION_FAILED', '/url'],
        [
          'an unknown event type',
          { url: 'https://hooks.example.com/', eventTypes: ['order.created', 'order.eaten'] },
          'UNKNOWN_EVENT_TYPE',
          '/eventTypes/1',
        ],
        [
          'an empty event filter',
          { url: 'https://hooks.example.com/', eventTypes: [] },
          'VALIDATION_FAILED',
          '/eventTypes',
        ],
        ['a loopback IP', { url: 'http://127.0.0.1:8080/' }, 'ENDPOINT_URL_NOT_ALLOWED', '/url'],
        ['a private IP', { url: 'http://192.168.1.10/' }, 'ENDPOINT_URL_NOT_ALLOWED', '/url'],
        [
          'a link-local IP',
          { url: 'http://169.254.169.254/latest/meta-data' },
          'ENDPOINT_URL_NOT_ALLOWED',
          '/url',
        ],
        ['an IPv6 loopback', { url: 'http://[::1]:9000/' }, 'ENDPOINT_URL_NOT_ALLOWED', '/url'],
        ['a unique-local IPv6', { url: 'http://[fd12:3456::1]/' }, 'ENDPOINT_URL_NOT_ALLOWED', '/url'],
        [
          'a name resolving to loopback',
          { url: 'http://localhost:3000/' },
          'ENDPOINT_URL_NOT_ALLOWED',
          '/url',
        ],
        [
          'a name with one private address',
          { url: 'https://mixed.example.com/' },
          'ENDPOINT_URL_NOT_ALLOWED',
          '/url',
        ],
        [
          'a name that does not resolve',
          { url: 'https://nowhere.invalid/' },
          'ENDPOINT_URL_NOT_ALLOWED',
          '/url',
        ],
        [
          'an unknown field',
          { url: 'https://hooks.example.com/', secret: 'whsec_mine' },
          'VALIDATION_FAILED',
          '',
        ],
      ];
      for (const [what, body, code, pointer] of refusals) {
        it(`refuses ${what} with 422 ${code}, creating nothing`, async () => {
          const before = snapshot(t);
          const problem = assertProblem(await t.post(BASE, body), 422, code);
          const pointers = (problem.errors as Array<{ pointer: string }>).map((e) => e.pointer);
          assert.ok(pointers.includes(pointer), `${pointers}`);
          assert.deepEqual(snapshot(t), before);
        });
      }
      it('needs webhook:rw', async () => {
        const problem = assertProblem(
          await t.post(BASE, { url: 'https://hooks.example.com/' }, { scopes: ['webhook:r'] }),
          403,
          'INSUFFICIENT_SCOPE',
        );
        assert.equal(problem.requiredScope, 'webhook:rw');
      });
    });
  });

  describe('with KEYGATE_WEBHOOKS_ALLOW_PRIVATE', () => {
    it('accepts loopback endpoints', async () => {
      const open = await createTestApp({ webhooks: { allowPrivateAddresses: true, lookupHost: fakeDns } });
      try {
        assert.equal((await open.post(BASE, { url: 'http://127.0.0.1:9/' })).status, 201);
        assert.equal((await open.post(BASE, { url: 'http://localhost:9/' })).status, 201);
      } finally {
        open.close();
      }
    });
  });

  describe('PATCH and DELETE /v2/webhooks/endpoints/{id}', () => {
    it('changes url, filter, description and enabled; refuses bad changes without changing anything', async () => {
      const id = (await t.post(BASE, { url: 'https://hooks.example.com/a' })).body.id;
      const res = await t.patch(`${BASE}/${id}`, {
        url: 'https://hooks.example.com/b',
        eventTypes: ['customer.updated'],
        description: 'CRM',
        enabled: false,
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        [res.body.url, res.body.eventTypes, res.body.description, res.body.enabled, res.body.disabledReason],
        ['https://hooks.example.com/b', ['customer.updated'], 'CRM', false, 'manual'],
      );
      const before = snapshot(t);
      assertProblem(
        await t.patch(`${BASE}/${id}`, { url: 'http://10.1.2.3/' }),
        422,
        'ENDPOINT_URL_NOT_ALLOWED',
      );
      assertProblem(await t.patch(`${BASE}/${id}`, { eventTypes: ['nope'] }), 422, 'UNKNOWN_EVENT_TYPE');
      assertProblem(await t.patch(`${BASE}/${id}`, {}), 422, 'VALIDATION_FAILED');
      assertProblem(await t.patch(`${BASE}/whe_nope`, { enabled: true }), 404, 'ENDPOINT_NOT_FOUND');
      assert.deepEqual(snapshot(t), before);
      const enabled = await t.patch(`${BASE}/${id}`, { enabled: true, eventTypes: null });
      assert.deepEqual(
        [enabled.body.enabled, enabled.body.disabledReason, enabled.body.eventTypes],
        [true, null, null],
      );
      assert.equal((await t.delete(`${BASE}/${id}`)).status, 204);
      assertProblem(await t.get(`${BASE}/${id}`), 404, 'ENDPOINT_NOT_FOUND');
      assertProblem(await t.delete(`${BASE}/${id}`), 404, 'ENDPOINT_NOT_FOUND');
    });
  });

  describe('POST /v2/webhooks/endpoints/{id}:rotate-secret', () => {
    it('gives a new secret, keeps the old one for overlapHours (default 24), and closes it on request', async () => {
      const created = (await t.post(BASE, { url: 'https://hooks.example.com/' })).body;
      const rotated = await t.post(`${BASE}/${created.id}:rotate-secret`);
      assert.equal(rotated.status, 200, rotated.text);
      assert.match(rotated.body.secret, /^whsec_/);
      assert.notEqual(rotated.body.secret, created.secret);
      assert.deepEqual(rotated.body.secretRotation, {
        previousSecretExpiresAt: new Date(TEST_NOW.getTime() + 24 * 3_600_000).toISOString(),
      });
      const week = await t.post(`${BASE}/${created.id}:rotate-secret`, { overlapHours: 168 });
      assert.equal(
        week.body.secretRotation.previousSecretExpiresAt,
        new Date(TEST_NOW.getTime() + 168 * 3_600_000).toISOString(),
      );
      const closed = await t.post(`${BASE}/${created.id}:close-old-secret`);
      assert.equal(closed.status, 200, closed.text);
      assert.equal(closed.body.secretRotation, null);
      assert.equal(closed.body.secret, undefined);
      const now = await t.post(`${BASE}/${created.id}:rotate-secret`, { overlapHours: 0 });
      assert.equal(now.body.secretRotation, null);
    });
    it('refuses overlapHours outside 0..168 or not whole, changing nothing', async () => {
      const id = (await t.post(BASE, { url: 'https://hooks.example.com/' })).body.id;
      const before = snapshot(t);
      for (const overlapHours of [-1, 169, 1.5, '24']) {
        const problem = assertProblem(
          await t.post(`${BASE}/${id}:rotate-secret`, { overlapHours }),
          422,
          'VALIDATION_FAILED',
        );
        assert.deepEqual(
          (problem.errors as Array<{ pointer: string }>).map((e) => e.pointer),
          ['/overlapHours'],
        );
      }
      assertProblem(await t.post(`${BASE}/whe_nope:rotate-secret`), 404, 'ENDPOINT_NOT_FOUND');
      assert.deepEqual(snapshot(t), before);
    });
  });

  describe('POST /v2/webhooks/endpoints/{id}:test', () => {
    it('queues a webhook.test delivery to that endpoint only (202); a disabled endpoint answers 409', async () => {
      const id = (await t.post(BASE, { url: 'https://hooks.example.com/', eventTypes: ['order.created'] }))
        .body.id;
      const other = (await t.post(BASE, { url: 'https://hooks.example.com/other' })).body.id;
      const res = await t.post(`${BASE}/${id}:test`);
      assert.equal(res.status, 202, res.text);
      assert.match(res.body.id, /^msg_/);
      assert.deepEqual(
        [res.body.eventType, res.body.status, res.body.endpointId],
        ['webhook.test', 'pending', id],
      );
      const list = await t.get(`${BASE}/${id}/deliveries`, { scopes: ['webhook:r'] });
      assert.deepEqual(list.body.data, [{ ...res.body, attempts: [] }]);
      assert.deepEqual((await t.get(`${BASE}/${other}/deliveries`)).body.data, []);
      await t.patch(`${BASE}/${id}`, { enabled: false });
      assertProblem(await t.post(`${BASE}/${id}:test`), 409, 'ENDPOINT_DISABLED');
    });
  });

  describe('GET /v2/webhooks/endpoints/{id}/deliveries', () => {
    it('pages newest first with a cursor', async () => {
      const id = (await t.post(BASE, { url: 'https://hooks.example.com/' })).body.id;
      const sent: string[] = [];
      for (let i = 0; i < 5; i++) sent.push((await t.post(`${BASE}/${id}:test`)).body.id);
      const first = await t.get(`${BASE}/${id}/deliveries?limit=2`);
      const second = await t.get(`${BASE}/${id}/deliveries?limit=2&cursor=${first.body.nextCursor}`);
      const third = await t.get(`${BASE}/${id}/deliveries?limit=2&cursor=${second.body.nextCursor}`);
      const ids = [first, second, third].flatMap((r) => r.body.data.map((d: { id: string }) => d.id));
      assert.deepEqual(ids, sent.reverse());
      assert.equal(third.body.nextCursor, null);
      assertProblem(await t.get(`${BASE}/${id}/deliveries?cursor=garbage`), 422, 'INVALID_CURSOR');
      assertProblem(await t.get(`${BASE}/${id}/deliveries?limit=0`), 422, 'VALIDATION_FAILED');
    });
  });

  describe('POST /v2/webhooks/deliveries/{id}:resend', () => {
    it('answers 404 for an unknown delivery', async () => {
      assertProblem(await t.post('/v2/webhooks/deliveries/msg_nope:resend'), 404, 'DELIVERY_NOT_FOUND');
    });
  });

  describe('GET /v2/webhooks/event-types', () => {
    it('lists the catalogue', async () => {
      const res = await t.get('/v2/webhooks/event-types', { scopes: ['webhook:r'] });
      assert.deepEqual(res.body, { data: [...EVENT_TYPES], testEventType: 'webhook.test' });
    });
  });

  describe('fan-out', () => {
    it('gives each enabled endpoint whose filter matches one delivery of an event, others none', async () => {
      const all = (await t.post(BASE, { url: 'https://hooks.example.com/all' })).body.id;
      const stockOnly = (
        await t.post(BASE, { url: 'https://hooks.example.com/s', eventTypes: ['stock.updated'] })
      ).body.id;
      const customersOnly = (
        await t.post(BASE, { url: 'https://hooks.example.com/c', eventTypes: ['customer.created'] })
      ).body.id;
      const disabled = (await t.post(BASE, { url: 'https://hooks.example.com/d', enabled: false })).body.id;
      t.db.sqlite.exec("UPDATE stock SET allocated = 0 WHERE product_id = 'prd_00002'");
      await t.put('/v2/stock/KG-00002', { onHand: 5 });
      const count = (endpointId: string) =>
        (
          t.db.sqlite
            .prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?')
            .get(endpointId) as { n: number }
        ).n;
      assert.deepEqual([all, stockOnly, customersOnly, disabled].map(count), [1, 1, 0, 0]);
    });
  });
});
