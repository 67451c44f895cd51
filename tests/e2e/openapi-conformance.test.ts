import assert from 'node:assert/strict';
import { ALERT_EVENT_TYPES, ALERT_TEST_EVENT_TYPE } from '@keygate/contracts/gateway';
import { verifyWebhook } from '@keygate/webhooks';
import { causeEveryEvent, fetchJson, findSku } from '../support/conformance-data.ts';
import {
  type ConformanceChecker,
  createConformanceChecker,
  type Node,
  resolveRef,
} from '../support/openapi-conformance.ts';
import { type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';
import { startReceiver, typeOf, type WebhookReceiver } from '../support/webhook-receiver.ts';

interface CallOptions {
  key?: string | null;
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as is instead of JSON (with its own Content-Type in `headers`). */
  rawBody?: string;
}

describe('the OpenAPI document against the running system', function () {
  this.timeout(180_000);
  let system: System;
  let checker: ConformanceChecker;
  let admin: string;

  /** Calls a documented operation through the gateway and checks the answer against the document. */
  async function call(operationId: string, expected: number, options: CallOptions = {}): Promise<Node> {
    const { method, path } = checker.operation(operationId);
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`${operationId}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const key = options.key === undefined ? admin : options.key;
    const res = await system.call(key, url + query, { method: method.toUpperCase(), headers, body });
    const text = await res.text();
    const problems = checker.check(operationId, { status: res.status, headers: res.headers, text });
    assert.equal(res.status, expected, `${operationId} answered ${res.status}: ${text.slice(0, 500)}`);
    assert.deepEqual(problems, [], `${operationId} ${res.status} differs from the document`);
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    // JSON and problem+json are parsed; text, images and JSON lines are kept as text.
    if (!/[/+]json$/.test(mediaType)) return { text, etag: res.headers.get('etag') };
    return text ? (JSON.parse(text) as Node) : {};
  }

  before(async () => {
    checker = createConformanceChecker();
    system = await startSystem({
      commerceEnv: { KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true', COMMERCE_WEBHOOK_POLL_MS: '100' },
      gatewayEnv: { KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true' },
    });
    const scopes = [
      'auth:rw',
      'article:rw',
      'order:rw',
      'stock:rw',
      'customer:rw',
      'pricing:rw',
      'webhook:rw',
    ];
    admin = (await system.createKey({ name: 'conformance', env: 'live', scopes })).secret;
  });

  after(async () => {
    await system?.stop();
  });

  it('serves its own document publicly', async () => {
    const served = await call('getOpenApiDocument', 200, { key: null });
    assert.deepEqual(served, checker.document);
    const etag = (await system.call(null, '/v2/openapi.json')).headers.get('etag') ?? '';
    await call('getOpenApiDocument', 304, { key: null, headers: { 'If-None-Match': etag } });
  });

  it('manages keys (/v2/auth/keys) as documented', async () => {
    // Expiring in 3 days: its answers carry Keygate-Key-Expires and its view an expiryReminder.
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const agency = await call('createKey', 201, {
      body: { name: 'agency', scopes: ['article:r', 'order:r'], expiresAt, rateLimit: { perMinute: 100 } },
    });
    assert.ok(agency.expiryReminder, 'the key is within its reminder lead time');
    const params = { id: String(agency.id) };
    await call('listKeys', 200, { query: { status: 'active' } });
    await call('getKey', 200, { params });
    await call('changeKeyScopes', 200, { params, body: { scopes: ['article:r'] } });
    const rotated = await call('rotateKey', 200, { params, body: { overlapDays: 1 } });
    await call('closeOldKeySecret', 200, { params, body: {} });
    await call('listChannels', 200, { key: String(rotated.secret) });
    // Usage is flushed on an interval: wait until the call shows, so the filled-in shapes are checked too.
    await waitUntil('the call is in the usage', async () => {
      const usage = await call('getKeyUsage', 200, { params });
      return (usage.totals as { calls: number }).calls > 0;
    });
    await waitUntil('the call is in the analytics', async () => {
      const analytics = await call('getKeyAnalytics', 200, { params, query: { granularity: 'minute' } });
      return (analytics.data as Array<{ outcomes: { VALID: number } }>).some(
        (point) => point.outcomes.VALID > 0,
      );
    });
    await call('listKeyActivity', 200, { params, query: { limit: '5' } });
    // API log lines reach the store through the log writer's own commit, a moment after the usage.
    await waitUntil('the call is in the API log', async () => {
      const logs = await call('listKeyLogs', 200, { params, query: { limit: '5' } });
      return (logs.items as unknown[]).length > 0;
    });
    const throwaway = await call('createKey', 201, { body: { name: 'throwaway', scopes: ['article:r'] } });
    await call('revokeKey', 200, { params: { id: String(throwaway.id) } });
  });

  it('manages plans, identities and a key’s budget as documented', async () => {
    const plan = await call('createPlan', 201, {
      body: {
        name: 'Pro',
        limits: [{ name: 'minute', window: 'minute', limit: 100 }],
        quotas: [{ period: 'month', limit: 10_000 }],
        credits: { refill: { interval: 'monthly', amount: 500, day: 1 } },
      },
    });
    const planParams = { id: String(plan.id) };
    await call('listPlans', 200);
    await call('getPlan', 200, { params: planParams });
    await call('updatePlan', 200, { params: planParams, body: { quotas: [{ period: 'day', limit: 500 }] } });
    const identity = await call('createIdentity', 201, {
      body: {
        externalId: `cus_${Date.now()}`,
        planId: plan.id,
        meta: { company: 'Acme' },
        credits: { remaining: 50 },
      },
    });
    const identityParams = { id: String(identity.id) };
    await call('listIdentities', 200, { query: { limit: '10' } });
    const key = await call('createKey', 201, {
      body: { name: 'customer', scopes: ['article:r'], identityId: identity.id },
    });
    await call('getIdentity', 200, { params: identityParams });
    await call('getIdentityCredits', 200, { params: identityParams });
    await call('changeIdentityCredits', 200, { params: identityParams, body: { increment: 5 } });
    await call('changeIdentityCredits', 422, { params: identityParams, body: { increment: 5, set: 1 } });
    await call('getKeyCredits', 409, { params: { id: String(key.id) } });
    await call('listChannels', 200, { key: String(key.secret) });
    const period = new Date().toISOString().slice(0, 7);
    await waitUntil('the call is billed to the identity', async () => {
      const usage = await call('getIdentityUsage', 200, { params: identityParams, query: { period } });
      return (usage.total as { calls: number }).calls > 0;
    });
    await call('getIdentityUsage', 422, { params: identityParams, query: { period: '2026-13' } });
    await call('getIdentityAnalytics', 200, { params: identityParams, query: { granularity: 'hour' } });
    await call('getKeyUsage', 200, { params: { id: String(key.id) }, query: { period } });
    await call('exportUsage', 200, { query: { period, format: 'csv' } });
    await call('exportUsage', 200, { query: { period, format: 'jsonl' } });
    const prepaid = await call('createKey', 201, {
      body: { name: 'prepaid', scopes: ['article:r'], credits: { remaining: 5 } },
    });
    await call('getKeyCredits', 200, { params: { id: String(prepaid.id) } });
    await call('changeKeyCredits', 200, { params: { id: String(prepaid.id) }, body: { set: 7 } });
    await call('deleteIdentity', 409, { params: identityParams });
    await call('deletePlan', 409, { params: planParams });
    await call('updateKeyBudget', 200, {
      params: { id: String(key.id) },
      body: { identityId: null, planId: plan.id },
    });
    await call('updateIdentity', 200, {
      params: identityParams,
      body: { planId: null, meta: { company: 'Acme AG' } },
    });
    await call('deleteIdentity', 204, { params: identityParams });
    await call('updateKeyBudget', 200, { params: { id: String(key.id) }, body: { planId: null } });
    await call('deletePlan', 204, { params: planParams });
    await call('getPlan', 404, { params: planParams });
  });

  describe('refusals', () => {
    let reader: string;
    before(async () => {
      reader = (await system.createKey({ name: 'reader', env: 'live', scopes: ['article:r'] })).secret;
    });

    it('answers key-management errors as documented', async () => {
      await call('createKey', 422, { body: { name: '', scopes: [] } });
      await call('getKey', 404, { params: { id: 'key_doesnotexist' } });
      await call('createKey', 400, { rawBody: '{"name":', headers: { 'Content-Type': 'application/json' } });
      await call('listKeys', 403, { key: reader });
    });

    it('answers authentication, scope and rate-limit refusals as documented', async () => {
      await call('listChannels', 401, { key: null });
      await call('listChannels', 401, { key: 'kg_live_not_a_real_key' });
      await call('createCart', 403, { key: reader, body: { channel: 'WEB_DE' } });
      const limited = await call('createKey', 201, {
        body: { name: 'limited', scopes: ['article:r'], rateLimit: { perMinute: 1 } },
      });
      await call('listChannels', 200, { key: String(limited.secret) });
      await call('listChannels', 429, { key: String(limited.secret) });
    });
  });

  describe('catalogue, stock, customers, prices, carts and orders', () => {
    let sku: string;
    let customerId: string;
    before(async () => {
      sku = await findSku(system, admin);
      customerId = String(
        (await fetchJson(system, admin, '/v2/customers', { method: 'POST', body: '{"name":"Cart Co"}' })).id,
      );
    });

    it('reads the catalogue, GraphQL included', async () => {
      const channel = { 'X-Channel': 'WEB_DE' };
      await call('listProducts', 200, { headers: channel, query: { inStock: 'true', limit: '2' } });
      await call('getProduct', 200, { headers: channel, params: { sku } });
      await call('getProduct', 404, { headers: channel, params: { sku: 'NO-SUCH-SKU' } });
      await call('listProducts', 422, { query: { limit: '2' } });
      const query = '{ products(channel: WEB_DE, first: 2) { sku } }';
      await call('queryGraphqlGet', 200, { query: { query }, headers: { Accept: 'application/json' } });
      const posted = await call('queryGraphql', 200, {
        body: { query },
        headers: { Accept: 'application/json' },
      });
      assert.equal((posted.data as { products: unknown[] }).products.length, 2);
      await call('queryGraphql', 400, { body: {} });
    });

    it('sets product images and serves the generated ones', async () => {
      const channel = { 'X-Channel': 'WEB_DE' };
      const other = (await call('listProducts', 200, { headers: channel, query: { limit: '3' } }))
        .data as Node[];
      const product = other.find((p) => p.sku !== sku) as { sku: string; images: Array<{ url: string }> };
      const [file] = product.images[0]?.url.split('/').slice(-1) ?? [];
      const params = { sku: product.sku, file: String(file) };
      const image = await call('getProductImage', 200, { params });
      await call('getProductImage', 304, { params, headers: { 'If-None-Match': String(image.etag) } });
      await call('getProductImage', 404, { params: { ...params, file: 'nope.png' } });
      const images = [{ url: 'https://cdn.example.com/a.webp', alt: 'A', width: 640, height: 480 }];
      const set = await call('setProductImages', 200, { params: { sku: product.sku }, body: { images } });
      assert.deepEqual(set.images, images);
      await call('setProductImages', 422, {
        params: { sku: product.sku },
        body: { images: [{ ...images[0], url: 'http://cdn.example.com/a.webp' }] },
      });
      await call('setProductImages', 404, { params: { sku: 'NO-SUCH-SKU' }, body: { images } });
    });

    it('changes stock, customers, prices and VAT rates', async () => {
      const params = { sku };
      const stock = await call('getStock', 200, { params });
      assert.ok(Number(stock.available) > 0);
      // Down to what orders hold (available 0: out of stock), then up again (back in stock).
      await call('setStock', 200, { params, body: { onHand: stock.allocated } });
      await call('adjustStock', 200, { params, body: { delta: 20 } });
      await call('setStock', 422, { params, body: { onHand: -1 } });
      const customer = await call('createCustomer', 201, { body: { name: 'Acme GmbH' } });
      const id = String(customer.id);
      await call('getCustomer', 200, { params: { id } });
      await call('updateCustomer', 200, { params: { id }, body: { name: 'Acme AG', tier: 'gold' } });
      await call('getCustomer', 404, { params: { id: 'cus_nobody' } });
      const price = await call('createPrice', 201, {
        body: { sku, channel: 'WEB_DE', level: 'agreement', customerId: id, amount: 999 },
      });
      const priceId = { id: String(price.id) };
      await call('getPrice', 200, { params: priceId });
      await call('replacePrice', 200, { params: priceId, body: { amount: 899 } });
      const pricing = await call('getCustomerPricing', 200, { params: { id } });
      assert.equal((pricing.agreements as unknown[]).length, 1);
      await call('deletePrice', 204, { params: priceId });
      const vat = { country: 'DE', taxClass: 'zero' };
      await call('setVatRate', 200, { params: vat, body: { rateBp: 1 } });
      await call('setVatRate', 200, { params: vat, body: { rateBp: 0 } });
    });

    it('fills carts, checks out, cancels and fulfils orders', async () => {
      const cart = await call('createCart', 201, { body: { channel: 'WEB_DE', customerId } });
      const params = { id: String(cart.id) };
      await call('addCartItem', 200, { params, body: { sku, qty: 2 } });
      await call('updateCartItem', 200, { params: { ...params, sku }, body: { qty: 3 } });
      await call('updateCartItem', 422, { params: { ...params, sku }, body: { qty: 0 } });
      await call('removeCartItem', 404, { params: { ...params, sku: 'KG-00010' } });
      await call('addCartItem', 200, { params, body: { sku: 'KG-00010', qty: 1 } });
      await call('removeCartItem', 200, { params: { ...params, sku: 'KG-00010' } });
      await call('getCart', 200, { params });
      const order = await call('checkoutCart', 201, { params });
      await call('getOrder', 200, { params: { id: String(order.id) } });
      await call('cancelOrder', 200, { params: { id: String(order.id) } });
      await call('cancelOrder', 409, { params: { id: String(order.id) } });
      await call('addCartItem', 409, { params, body: { sku, qty: 1 } });
      const second = await call('createCart', 201, { body: { channel: 'WEB_DE' } });
      await call('addCartItem', 200, { params: { id: String(second.id) }, body: { sku, qty: 1 } });
      const placed = await call('checkoutCart', 201, { params: { id: String(second.id) }, body: {} });
      await call('fulfilOrder', 200, { params: { id: String(placed.id) } });
      await call('getCart', 404, { params: { id: 'cart_nobody' } });
      await call('createCart', 415, { rawBody: 'channel=WEB_DE', headers: { 'Content-Type': 'text/plain' } });
      await call('createCart', 400, {
        rawBody: '{"channel":',
        headers: { 'Content-Type': 'application/json' },
      });
    });
  });

  describe('Idempotency-Key', () => {
    it('replays, refuses reuse and malformed keys as documented, on commerce and the gateway', async () => {
      const keyed = (value: string) => ({ headers: { 'Idempotency-Key': value } });
      const first = await call('createCart', 201, { body: { channel: 'WEB_DE' }, ...keyed('conf-cart') });
      const replayed = await call('createCart', 201, { body: { channel: 'WEB_DE' }, ...keyed('conf-cart') });
      assert.equal(replayed.id, first.id);
      await call('createCart', 422, { body: { channel: 'WEB_CH' }, ...keyed('conf-cart') });
      await call('createCart', 400, { body: { channel: 'WEB_DE' }, ...keyed('two words') });
      const body = { name: 'conformance child', scopes: ['article:r'] };
      const key = await call('createKey', 201, { body, ...keyed('conf-key') });
      assert.equal((await call('createKey', 201, { body, ...keyed('conf-key') })).id, key.id);
      await call('createKey', 422, { body: { ...body, name: 'other' }, ...keyed('conf-key') });
      await call('createKey', 400, { body, ...keyed('x'.repeat(256)) });
    });
  });

  describe('webhooks', () => {
    let receiver: WebhookReceiver;
    let endpointId: string;
    const secrets: string[] = [];
    // Commerce's events; the gateway's alerts have their own endpoints (checked below).
    const alertTypes = new Set<string>([...ALERT_EVENT_TYPES, ALERT_TEST_EVENT_TYPE]);
    const documentedTypes = () =>
      Object.keys(asWebhooks(checker.document.webhooks)).filter((type) => !alertTypes.has(type));

    before(async () => {
      receiver = await startReceiver();
      await call('listWebhookEventTypes', 200);
      const endpoint = await call('createWebhookEndpoint', 201, {
        body: { url: receiver.url, eventTypes: null },
      });
      endpointId = String(endpoint.id);
      secrets.push(String(endpoint.secret));
      await causeEveryEvent(system, admin, await findSku(system, admin));
      await call('sendWebhookTest', 202, { params: { id: endpointId } });
    });

    after(() => receiver?.close());

    it('refuses an endpoint URL it cannot deliver to', async () => {
      await call('createWebhookEndpoint', 422, { body: { url: 'ftp://example.test/' } });
    });

    it('delivers a signed payload matching the documented schema for every webhook event', async () => {
      const undelivered = () => {
        const types = new Set(receiver.received.map(typeOf));
        return documentedTypes().filter((type) => !types.has(type));
      };
      await waitUntil('every event type was delivered', () => undelivered().length === 0, 30_000).catch(
        () => {},
      );
      assert.deepEqual(undelivered(), [], 'event types never delivered');
      const counts = Map.groupBy(receiver.received, typeOf);
      for (const type of documentedTypes()) assert.ok((counts.get(type)?.length ?? 0) >= 1, type);
      const webhooks = asWebhooks(checker.document.webhooks);
      for (const delivery of receiver.received) {
        const type = typeOf(delivery);
        const post = (webhooks[type] as { post?: Node } | undefined)?.post;
        assert.ok(post, `${type} is not documented under webhooks`);
        const content = resolveRef(checker.document, post.requestBody).content as Record<
          string,
          { schema: unknown }
        >;
        const payload = JSON.parse(delivery.body) as unknown;
        assert.deepEqual(checker.validate(content['application/json']?.schema, payload), [], type);
        for (const parameter of post.parameters as Array<{ name: string; schema: unknown }>) {
          const value = delivery.headers[parameter.name];
          assert.equal(typeof value, 'string', `${type}: ${parameter.name}`);
          assert.deepEqual(checker.validate(parameter.schema, value), [], `${type}: ${parameter.name}`);
        }
        verifyWebhook(secrets, delivery.headers, delivery.body);
      }
    });

    it('manages the endpoint, its secret and its deliveries', async () => {
      const params = { id: endpointId };
      await call('listWebhookEndpoints', 200);
      await call('getWebhookEndpoint', 200, { params });
      await call('updateWebhookEndpoint', 200, { params, body: { description: 'conformance' } });
      const rotated = await call('rotateWebhookSecret', 200, { params, body: { overlapHours: 1 } });
      secrets.push(String(rotated.secret));
      await call('closeOldWebhookSecret', 200, { params });
      let done: { id: string } | undefined;
      await waitUntil('a delivery succeeded', async () => {
        const page = await call('listWebhookDeliveries', 200, { params, query: { limit: '5' } });
        done = (page.data as Array<{ id: string; status: string }>).find((d) => d.status === 'succeeded');
        return done !== undefined;
      });
      await call('resendWebhookDelivery', 202, { params: { id: String(done?.id) } });
      await call('resendWebhookDelivery', 404, { params: { id: 'nothing' } });
      await call('getWebhookEndpoint', 404, { params: { id: 'whe_nothing' } });
      await call('deleteWebhookEndpoint', 204, { params });
    });
  });

  describe('alert endpoints (the gateway)', () => {
    it('manages an endpoint and its deliveries, and signs its test alert as documented', async () => {
      const receiver = await startReceiver();
      try {
        const created = await call('createAlertEndpoint', 201, { body: { url: receiver.url } });
        const params = { id: String(created.id) };
        await call('createAlertEndpoint', 422, { body: { url: 'ftp://nowhere' } });
        await call('listAlertEndpoints', 200);
        await call('getAlertEndpoint', 200, { params });
        await call('updateAlertEndpoint', 200, {
          params,
          body: { eventTypes: ['key.revoked', 'key.created'] },
        });
        const rotated = await call('rotateAlertEndpointSecret', 200, { params, body: { overlapHours: 1 } });
        await call('sendAlertEndpointTest', 202, { params });
        let done: { id: string } | undefined;
        await waitUntil('the test alert was delivered', async () => {
          const page = await call('listAlertDeliveries', 200, { params, query: { limit: '5' } });
          done = (page.data as Array<{ id: string; status: string }>).find((d) => d.status === 'succeeded');
          return done !== undefined;
        });
        await call('resendAlertDelivery', 202, { params: { id: String(done?.id) } });
        const delivery = receiver.received.find((d) => typeOf(d) === ALERT_TEST_EVENT_TYPE);
        assert.ok(delivery, 'the test alert reached the receiver');
        const post = (asWebhooks(checker.document.webhooks)[ALERT_TEST_EVENT_TYPE] as { post: Node }).post;
        const content = resolveRef(checker.document, post.requestBody).content as Record<
          string,
          { schema: unknown }
        >;
        assert.deepEqual(
          checker.validate(content['application/json']?.schema, JSON.parse(delivery.body)),
          [],
        );
        verifyWebhook([String(rotated.secret)], delivery.headers, delivery.body);
        await call('deleteAlertEndpoint', 204, { params });
        await call('getAlertEndpoint', 404, { params });
      } finally {
        await receiver.close();
      }
    });

    it('streams the alerts as the document describes', async () => {
      const { path } = checker.operation('streamAlertEvents');
      const controller = new AbortController();
      const res = await system.call(admin, path, { signal: controller.signal });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      const revoked = await call('createKey', 201, { body: { name: 'to-revoke', scopes: ['article:r'] } });
      await call('revokeKey', 200, { params: { id: String(revoked.id) } });
      let text = '';
      while (!/event: key\.revoked\n[\s\S]*\n\n/.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      controller.abort();
      assert.equal(res.status, 200);
      assert.deepEqual(
        checker.check('streamAlertEvents', { status: res.status, headers: res.headers, text }),
        [],
      );
    });
  });

  describe('the sandbox (a test key)', () => {
    let testKey: string;
    before(async () => {
      testKey = (await system.createKey({ name: 'sandbox', env: 'test', scopes: ['webhook:rw'] })).secret;
    });

    it('triggers an event, refused to a live key and for an unknown type', async () => {
      const triggered = await call('triggerWebhookEvent', 200, {
        key: testKey,
        body: { type: 'order.created' },
      });
      assert.match(String(triggered.eventId), /^evt_/);
      await call('triggerWebhookEvent', 403, { body: { type: 'order.created' } });
      await call('triggerWebhookEvent', 422, { key: testKey, body: { type: 'order.exploded' } });
    });

    it('streams the events as the document describes, refused to a live key', async () => {
      const { path } = checker.operation('streamWebhookEvents');
      const controller = new AbortController();
      const res = await system.call(testKey, path, { signal: controller.signal });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      const triggered = await system.call(testKey, '/v2/webhooks/events:trigger', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'stock.updated' }),
      });
      const { eventId } = (await triggered.json()) as { eventId: string };
      let text = '';
      while (!text.includes(`id: ${eventId}\n`) || !text.endsWith('\n\n')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      controller.abort();
      assert.equal(res.status, 200);
      assert.deepEqual(
        checker.check('streamWebhookEvents', { status: res.status, headers: res.headers, text }),
        [],
      );
      await call('streamWebhookEvents', 403);
    });
  });

  describe('coverage', () => {
    it('exercised every documented operation with a documented success, and the main refusals', () => {
      const missing = checker.operations
        .filter(({ operationId, operation }) => {
          const seen = [...(checker.exercised.get(operationId) ?? [])];
          const successes = Object.keys(asWebhooks(operation.responses)).filter((status) =>
            status.startsWith('2'),
          );
          return !seen.some((status) => successes.includes(String(status)));
        })
        .map(({ operationId }) => operationId);
      assert.deepEqual(missing, [], 'operations never answered with their documented success');
      const statuses = new Set([...checker.exercised.values()].flatMap((set) => [...set]));
      for (const status of [400, 401, 403, 404, 409, 415, 422, 429])
        assert.ok(statuses.has(status), `no ${status} seen`);
    });
  });
});

function asWebhooks(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
