import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyWebhook } from '@keygate/webhooks';
import { json, type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';
import { startReceiver, typeOf, type WebhookReceiver } from '../support/webhook-receiver.ts';

const EVENT_TYPES = [
  'order.created',
  'order.status_changed',
  'stock.updated',
  'stock.out_of_stock',
  'stock.back_in_stock',
  'customer.created',
  'customer.updated',
  'customer.tier_changed',
  'product.updated',
  'pricing.price.created',
  'pricing.price.updated',
  'pricing.price.deleted',
  'pricing.vat_rate.updated',
];

/** SHA-256 of a database file and of its WAL, if any: what "byte-identical" compares. */
function fingerprintOf(file: string): string {
  const hash = createHash('sha256');
  for (const part of [file, `${file}-wal`]) if (existsSync(part)) hash.update(readFileSync(part));
  return hash.digest('hex');
}

/** The delivery of an event (its body's `id`; the `webhook-id` header is the delivery's own `msg_…`). */
const deliveryOf = (receiver: WebhookReceiver, eventId: string) =>
  receiver.received.find((d) => (JSON.parse(d.body) as { id: string }).id === eventId);

const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('the sandbox through the real gateway and commerce', function () {
  this.timeout(120_000);
  let system: System;
  let receiver: WebhookReceiver;
  let testKey: { id: string; secret: string };
  let liveKey: { id: string; secret: string };
  let endpointSecret: string;

  before(async () => {
    system = await startSystem({
      commerceEnv: { KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true', COMMERCE_WEBHOOK_POLL_MS: '100' },
    });
    receiver = await startReceiver();
    const scopes = ['webhook:rw', 'order:rw', 'stock:rw', 'article:r'];
    testKey = await system.createKey({ name: 'sandbox', env: 'test', scopes });
    liveKey = await system.createKey({ name: 'live', env: 'live', scopes });
    const created = await system.call(
      testKey.secret,
      '/v2/webhooks/endpoints',
      postJson({ url: receiver.url }),
    );
    assert.equal(created.status, 201, await created.clone().text());
    endpointSecret = (await json<{ secret: string }>(created)).secret;
  });

  after(async () => {
    receiver?.close();
    await system?.stop();
  });

  describe('POST /v2/webhooks/events:trigger', () => {
    it('emits every event type of the catalogue, each delivered signed to the subscribed endpoint', async () => {
      const ids = new Map<string, string>();
      for (const type of EVENT_TYPES) {
        const res = await system.call(testKey.secret, '/v2/webhooks/events:trigger', postJson({ type }));
        assert.equal(res.status, 200, `${type}: ${await res.clone().text()}`);
        const body = await json<{ eventId: string; type: string }>(res);
        assert.equal(body.type, type);
        ids.set(body.eventId, type);
      }
      await waitUntil('every triggered event was delivered', () =>
        [...ids.keys()].every((id) => deliveryOf(receiver, id) !== undefined),
      );
      for (const [id, type] of ids) {
        const delivery = deliveryOf(receiver, id)!;
        assert.ok(verifyWebhook(endpointSecret, delivery.headers, delivery.body));
        assert.equal(typeOf(delivery), type);
        assert.equal(JSON.parse(delivery.body).environment, 'test');
      }
    });

    it('answers a live key 403 and changes nothing there', async () => {
      const res = await system.call(
        liveKey.secret,
        '/v2/webhooks/events:trigger',
        postJson({ type: 'order.created' }),
      );
      assert.equal(res.status, 403);
      assert.equal((await json(res)).code, 'SANDBOX_ONLY');
    });
  });

  describe('API log bodies, through GET /v2/auth/keys/{id}/logs', () => {
    it("keeps a test key's request and response bodies and none of a live key's", async () => {
      const triggered = await system.call(
        testKey.secret,
        '/v2/webhooks/events:trigger',
        postJson({ type: 'customer.created' }),
      );
      const { eventId } = await json<{ eventId: string }>(triggered);
      assert.equal((await system.call(liveKey.secret, '/v2/stock/KG-00002')).status, 200);
      type Line = {
        path: string;
        bodies?: { request: { text: string } | null; response: { text: string } | null };
      };
      const logsOf = async (keyId: string, manager: { secret: string }) =>
        (await json<{ items: Line[] }>(await system.call(manager.secret, `/v2/auth/keys/${keyId}/logs`)))
          .items;
      const liveManager = await system.createKey({ name: 'ops-live', env: 'live', scopes: ['auth:rw'] });
      let testLine: Line | undefined;
      let liveLine: Line | undefined;
      await waitUntil('both calls are in their logs', async () => {
        testLine = (await logsOf(testKey.id, await adminKey())).find((line) =>
          line.bodies?.response?.text.includes(eventId),
        );
        liveLine = (await logsOf(liveKey.id, liveManager)).find((line) => line.path === '/v2/stock/KG-00002');
        return testLine !== undefined && liveLine !== undefined;
      });
      assert.equal(testLine?.bodies?.request?.text, '{"type":"customer.created"}');
      assert.equal(liveLine?.bodies, undefined, 'live keys keep no bodies');
    });
  });

  describe('pnpm keygate sandbox reset --yes, and the admin API', () => {
    it('puts the test data back to the seed, keeps keys and logs, never touches live data, records who', async () => {
      const liveDb = join(system.dataDir, 'commerce-live.db');
      const triggered = await system.call(
        testKey.secret,
        '/v2/webhooks/events:trigger',
        postJson({ type: 'order.created' }),
      );
      const { eventId } = await json<{ eventId: string }>(triggered);
      await waitUntil('the order event was delivered', () => deliveryOf(receiver, eventId) !== undefined);
      const delivered = deliveryOf(receiver, eventId)!;
      const orderId = JSON.parse(delivered.body).data.order.id as string;
      assert.equal((await system.call(testKey.secret, `/v2/orders/${orderId}`)).status, 200);
      // The triggers above moved KG-00001's stock; the live environment still has the seed's level.
      const seedStock = await json(await system.call(liveKey.secret, '/v2/stock/KG-00001'));
      assert.notDeepEqual(await json(await system.call(testKey.secret, '/v2/stock/KG-00001')), seedStock);
      const live = fingerprintOf(liveDb);

      const reset = await system.keygate('sandbox', 'reset', '--yes');
      assert.equal(reset.code, 0, reset.stderr);
      assert.match(reset.stdout, /reset the test data of commerce/);

      assert.equal(
        (await system.call(testKey.secret, `/v2/orders/${orderId}`)).status,
        404,
        'orders dropped',
      );
      assert.deepEqual(await json(await system.call(testKey.secret, '/v2/stock/KG-00001')), seedStock);
      const endpoints = await json<{ data: unknown[] }>(
        await system.call(testKey.secret, '/v2/webhooks/endpoints'),
      );
      assert.equal(endpoints.data.length, 1, 'webhook endpoints kept');
      assert.equal(fingerprintOf(liveDb), live, 'the live database is byte-identical');

      // Keys, usage and logs are the gateway's: kept. The key works, and its log still has the calls.
      const logs = await json<{ items: Array<{ path: string }> }>(
        await system.call(null, `/v2/auth/keys/${testKey.id}/logs`, {
          headers: { Authorization: `Bearer ${(await adminKey()).secret}` },
        }),
      );
      assert.ok(logs.items.some((line) => line.path === `/v2/orders/${orderId}`));

      // The admin interface's API: a logged-in administrator, with the CSRF token.
      const admin = await logInAdmin();
      const viaAdmin = await fetch(`${system.gateway.url}/admin/api/sandbox/reset`, {
        method: 'POST',
        headers: { Cookie: admin.cookie, 'X-CSRF-Token': admin.csrfToken },
      });
      assert.equal(viaAdmin.status, 200, await viaAdmin.clone().text());
      assert.equal(fingerprintOf(liveDb), live, 'still byte-identical');
      const activity = await json<{
        items: Array<{ action: string; actor: { id: string }; keyId: unknown }>;
      }>(
        await fetch(`${system.gateway.url}/admin/api/activity?action=sandbox.reset`, {
          headers: { Cookie: admin.cookie },
        }),
      );
      assert.deepEqual(
        activity.items.map((entry) => [entry.actor.id.replace(/^cli:.*/, 'cli'), entry.keyId]),
        [
          [admin.userId, null],
          ['cli', null],
        ],
      );
    });

    it('refuses without a session, and asks for confirmation on the CLI unless --yes', async () => {
      const anonymous = await fetch(`${system.gateway.url}/admin/api/sandbox/reset`, { method: 'POST' });
      assert.equal(anonymous.status, 401);
      const unconfirmed = await system.keygate('sandbox', 'reset');
      assert.equal(unconfirmed.code, 2);
      assert.match(unconfirmed.stderr, /pass --yes/);
    });
  });

  let adminKeyCache: { id: string; secret: string } | undefined;
  async function adminKey() {
    adminKeyCache ??= await system.createKey({ name: 'ops', env: 'test', scopes: ['auth:rw'] });
    return adminKeyCache;
  }

  async function logInAdmin(): Promise<{ cookie: string; csrfToken: string; userId: string }> {
    const email = 'sandbox-admin@example.com';
    const password = 'correct horse battery staple';
    const created = await system.keygate(
      'admin',
      'create-user',
      '--email',
      email,
      '--password',
      password,
      '--json',
    );
    assert.equal(created.code, 0, created.stderr);
    const res = await fetch(`${system.gateway.url}/admin/api/session`, postJson({ email, password }));
    assert.equal(res.status, 201, await res.clone().text());
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    const body = await json<{ csrfToken: string; user: { id: string } }>(res);
    return { cookie, csrfToken: body.csrfToken, userId: body.user.id };
  }
});
