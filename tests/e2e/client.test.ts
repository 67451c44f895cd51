import assert from 'node:assert/strict';
import {
  createKeygateClient,
  type KeygateClient,
  type KeygateClientOptions,
  type KeygateNotice,
  KeygateProblemError,
  KeygateRateLimitError,
  ProblemCode,
  unwrap,
} from '@keygate/client';
import { addToCart } from '../../packages/client/examples/add-to-cart.ts';
import { createAgencyKey } from '../../packages/client/examples/create-agency-key.ts';
import { exportKeyActivity } from '../../packages/client/examples/export-activity.ts';
import { listProductsForCustomer } from '../../packages/client/examples/list-products.ts';
import { rotateWithoutDowntime } from '../../packages/client/examples/rotate-key.ts';
import { type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** A fetch that counts the requests it sends on, and records the Idempotency-Key of each. */
function countingFetch() {
  const sent: string[] = [];
  const keys: (string | null)[] = [];
  return {
    sent,
    keys,
    fetch: (request: Request, init?: RequestInit) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      keys.push(request.headers.get('idempotency-key'));
      return fetch(request, init);
    },
  };
}

describe('the typed client (@keygate/client) against the real gateway and commerce', function () {
  this.timeout(120_000);
  let system: System;
  let admin: KeygateClient;
  let agency: KeygateClient;
  let agencyKeyId: string;
  let agencySecret: string;

  const clientFor = (apiKey: KeygateClientOptions['apiKey'], options: Partial<KeygateClientOptions> = {}) =>
    createKeygateClient({ baseUrl: system.gateway.url, apiKey, ...options });

  before(async () => {
    system = await startSystem();
    const adminKey = await system.createKey({
      name: 'ops',
      env: 'live',
      scopes: ['auth:rw', 'article:r', 'order:rw'],
    });
    admin = clientFor(adminKey.secret);
    const created = await createAgencyKey(admin, {
      name: 'agency-acme',
      expiresAt: isoDay(30),
      ipAllowlist: ['127.0.0.0/8', '::1'],
    });
    agencyKeyId = created.id;
    agencySecret = created.secret;
    agency = clientFor(agencySecret);
  });

  after(async () => {
    await system?.stop();
  });

  it('creates an agency key with limited scopes, an expiry and an IP allowlist', async () => {
    const key = await unwrap(admin.GET('/v2/auth/keys/{id}', { params: { path: { id: agencyKeyId } } }));
    assert.deepEqual([...key.scopes].sort(), ['article:r', 'order:rw']);
    assert.equal(key.expiresAt, isoDay(30));
    assert.deepEqual(key.ipAllowlist, ['127.0.0.0/8', '::1']);
    assert.equal(key.rateLimit.perMinute, 120);
  });

  it('lists products for a channel and a customer with that customer’s prices', async () => {
    const counter = countingFetch();
    const paging = clientFor(agencySecret, { fetch: counter.fetch });
    const forCustomer = await listProductsForCustomer(paging, 'WEB_DE', 'cus_0003', 15);
    const anonymous = await unwrap(
      agency.GET('/v2/catalog/products', {
        params: { header: { 'X-Channel': 'WEB_DE' }, query: { limit: 100 } },
      }),
    );
    assert.ok(counter.sent.length > 1, 'the catalogue spans several pages of 15');
    assert.deepEqual(
      forCustomer.map((product) => product.sku),
      anonymous.data.map((product) => product.sku),
      'every page was fetched, each product once',
    );
    const agreed = forCustomer.find((product) => product.sku === 'KG-00003');
    const listed = anonymous.data.find((product) => product.sku === 'KG-00003');
    assert.ok(agreed && listed);
    assert.equal(agreed.price.currency, 'EUR');
    assert.ok(
      agreed.price.gross < listed.price.gross,
      'cus_0003 has an agreement price below the list price',
    );
    assert.equal(paging.rateLimit?.limit, 120);
    assert.equal(agency.rateLimit?.remaining, (paging.rateLimit?.remaining ?? 0) - 1, 'one budget per key');
  });

  it('adds to a cart, and reports how many are available when stock is short', async () => {
    const order = { channel: 'WEB_DE', customerId: 'cus_0003', sku: 'KG-00003', qty: 2 };
    const added = await addToCart(agency, order);
    assert.equal(added.added, true);
    assert.equal(added.cart.lines[0]?.sku, 'KG-00003');
    assert.equal(added.cart.lines[0]?.qty, 2);
    const short = await addToCart(agency, { ...order, sku: 'KG-00006', qty: 1 });
    assert.deepEqual([short.added, short.available], [false, 0]);
  });

  it('returns a missing scope as a typed 403 problem naming the scope', async () => {
    const { error, response } = await agency.GET('/v2/stock/{sku}', {
      params: { path: { sku: 'KG-00001' } },
    });
    assert.equal(response.status, 403);
    assert.equal(error?.code, 'INSUFFICIENT_SCOPE');
    assert.equal(error?.requiredScope, 'stock:r');
    assert.equal(error?.type, 'https://keygate.dev/problems/insufficient-scope');
    const thrown = await unwrap(
      agency.GET('/v2/stock/{sku}', { params: { path: { sku: 'KG-00001' } } }),
    ).catch((caught: unknown) => caught);
    assert.ok(thrown instanceof KeygateProblemError);
    assert.equal(thrown.code, 'INSUFFICIENT_SCOPE');
  });

  it('rotates a key without downtime: new secret deployed, old one closed once quiet', async () => {
    const key = await system.createKey({ name: 'shop-backend', env: 'live', scopes: ['article:r'] });
    let deployed = key.secret;
    const service = clientFor(() => deployed);
    assert.equal((await service.GET('/v2/channels')).response.status, 200);
    // Usage is flushed on an interval: start once the old secret's call shows, as it would in production.
    await waitUntil('the call with the old secret is counted', async () => {
      const view = await unwrap(admin.GET('/v2/auth/keys/{id}', { params: { path: { id: key.id } } }));
      return view.rotation.secrets[0]?.callCount === 1;
    });

    const progress: string[] = [];
    const outcome = await rotateWithoutDowntime(
      admin,
      key.id,
      async (secret) => {
        deployed = secret;
        assert.equal(
          (await service.GET('/v2/channels')).response.status,
          200,
          'the new secret works at once',
        );
      },
      { overlapDays: 1, quietMs: 500, pollMs: 250, log: (line) => progress.push(line) },
    );
    assert.equal(outcome.closed, true);
    assert.ok(progress.length >= 1, 'the old secret was watched before it was closed');

    const view = await unwrap(admin.GET('/v2/auth/keys/{id}', { params: { path: { id: key.id } } }));
    assert.equal(view.rotation.inProgress, false);
    const old = view.rotation.secrets.find((secret) => secret.id !== outcome.newSecretId);
    assert.deepEqual([old?.usable, old?.callCount], [false, 1]);
    const { error } = await clientFor(key.secret).GET('/v2/channels');
    assert.equal(error?.code, 'SECRET_CLOSED');
    assert.equal((await service.GET('/v2/channels')).response.status, 200);
  });

  it('exports a key’s activity with paginate, and stops at the limit it was given', async () => {
    const lines: string[] = [];
    const written = await exportKeyActivity(admin, agencyKeyId, (line) => lines.push(line));
    assert.equal(written, lines.length);
    const actions = lines.map((line) => (JSON.parse(line) as { action: string }).action);
    assert.ok(actions.includes('key.created'), actions.join(', '));
    const first: string[] = [];
    assert.equal(await exportKeyActivity(admin, agencyKeyId, (line) => first.push(line), 1), 1);
    assert.deepEqual(first, lines.slice(0, 1));
  });

  it('tells onNotice that the key expires soon', async () => {
    const key = await system.createKey({
      name: 'expiring',
      env: 'live',
      scopes: ['article:r'],
      extra: ['--expires', isoDay(3)],
    });
    const notices: KeygateNotice[] = [];
    const client = clientFor(key.secret, { onNotice: (notice) => notices.push(notice) });
    await client.GET('/v2/channels');
    await client.GET('/v2/channels');
    assert.deepEqual(notices, [{ kind: 'key-expiry', expiresOn: isoDay(3), daysLeft: 4 }]);
  });

  // The same scenario runs in PHP (tests/Integration/BudgetTest.php) and .NET (BudgetTests.cs).
  it('sells a plan: a day quota of 2 refuses the 3rd call typed, credits top up, usage shows it', async () => {
    const plan = await unwrap(
      admin.POST('/v2/auth/plans', {
        body: { name: 'ts-daily-2', limits: [], quotas: [{ period: 'day', limit: 2 }] },
      }),
    );
    const identity = await unwrap(
      admin.POST('/v2/auth/identities', {
        body: { externalId: `ts-customer-${Date.now()}`, planId: plan.id, credits: { remaining: 100 } },
      }),
    );
    const key = await unwrap(
      admin.POST('/v2/auth/keys', {
        body: { name: 'ts-budget', scopes: ['article:r'], identityId: identity.id },
      }),
    );
    const shop = clientFor(key.secret);
    const catalogue = () =>
      unwrap(
        shop.GET('/v2/catalog/products', {
          params: { header: { 'X-Channel': 'WEB_DE' }, query: { limit: 1 } },
        }),
      );
    await catalogue();
    await catalogue();
    const refused = await catalogue().catch((error: unknown) => error);
    assert.ok(refused instanceof KeygateRateLimitError, String(refused));
    assert.equal(refused.code, ProblemCode.QUOTA_EXCEEDED);
    assert.equal(refused.policy, 'day');
    assert.ok((refused.retryAfter ?? 0) > 0, 'the quota resets at the next UTC midnight');

    const params = { path: { id: identity.id } };
    assert.equal((await unwrap(admin.GET('/v2/auth/identities/{id}/credits', { params }))).remaining, 98);
    const topped = await unwrap(
      admin.POST('/v2/auth/identities/{id}/credits', { params, body: { increment: 50 } }),
    );
    assert.equal(topped.remaining, 148, 'two admitted calls spent 2 of 100; the refused one none');
    const withKeys = await unwrap(admin.GET('/v2/auth/identities/{id}', { params }));
    assert.deepEqual(
      withKeys.keys.map((k) => k.id),
      [key.id],
    );

    const period = new Date().toISOString().slice(0, 10);
    // Usage is written about once a second: poll until the three calls are counted.
    const readUsage = () =>
      unwrap(admin.GET('/v2/auth/identities/{id}/usage', { params: { ...params, query: { period } } }));
    let usage: Awaited<ReturnType<typeof readUsage>> | undefined;
    await waitUntil('the identity usage counts three calls', async () => {
      usage = await readUsage();
      return usage.total.calls === 3;
    });
    assert.equal(usage?.outcomes.VALID?.calls, 2);
    assert.equal(usage?.outcomes.QUOTA_EXCEEDED?.calls, 1);
  });

  describe('over the rate limit (a test key forcing it with Keygate-Test-Scenario: rate-limited)', () => {
    let secret: string;
    const forced = { headers: { 'Keygate-Test-Scenario': 'rate-limited' } };

    before(async () => {
      ({ secret } = await system.createKey({
        name: 'sandbox',
        env: 'test',
        scopes: ['article:r', 'order:rw'],
        extra: ['--rate-limit', '2'],
      }));
      // The forced refusals leave the real budget alone: a plain call still passes afterwards.
      const client = clientFor(secret);
      assert.equal((await client.GET('/v2/channels')).response.status, 200);
      assert.deepEqual([client.rateLimit?.limit, client.rateLimit?.remaining], [2, 1]);
    });

    it('retries a POST under its Idempotency-Key, then returns the 429 as a typed problem', async () => {
      const counter = countingFetch();
      const delays: number[] = [];
      const client = clientFor(secret, {
        ...forced,
        fetch: counter.fetch,
        sleep: async (ms) => void delays.push(ms),
        retry: { maxRetries: 1, maxWaitSeconds: 600 },
      });
      const { error, response } = await client.POST('/v2/carts', { body: { channel: 'WEB_DE' } });
      assert.equal(response.status, 429);
      assert.equal(error?.code, 'RATE_LIMITED');
      assert.ok((error?.retryAfter ?? 0) >= 1);
      assert.deepEqual(counter.sent, ['POST /v2/carts', 'POST /v2/carts']);
      assert.match(counter.keys[0] ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(counter.keys[1], counter.keys[0], 'the retry carries the same key');
      assert.equal(delays.length, 1);
    });

    it('with retries off, surfaces Retry-After on the problem and the rate-limit state', async () => {
      const client = clientFor(secret, { ...forced, retry: false });
      const { error, response } = await client.GET('/v2/channels');
      assert.equal(error?.code, 'RATE_LIMITED');
      assert.equal(String(error?.retryAfter), response.headers.get('retry-after'));
      assert.equal(client.rateLimit?.remaining, 0);
      assert.equal(client.rateLimit?.retryAfterSeconds, error?.retryAfter);
    });

    it('retries a GET after the Retry-After the gateway sent, up to maxRetries', async () => {
      const counter = countingFetch();
      const delays: number[] = [];
      // The window is a minute long: the injected sleep records the wait instead of sleeping it.
      const client = clientFor(secret, {
        ...forced,
        fetch: counter.fetch,
        sleep: async (ms) => void delays.push(ms),
        retry: { maxRetries: 2, maxWaitSeconds: 600 },
      });
      const { error } = await client.GET('/v2/channels');
      assert.equal(error?.code, 'RATE_LIMITED');
      assert.equal(counter.sent.length, 3, 'the first attempt and two retries');
      assert.equal(delays.length, 2);
      for (const delay of delays) assert.ok(delay >= 1000 && delay <= 60_000, `waited ${delay} ms`);
    });
  });
});
