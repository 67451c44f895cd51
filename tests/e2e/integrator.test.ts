import assert from 'node:assert/strict';
import { json, type System, startSystem } from '../support/system.ts';

const ALL_READ = ['article:r', 'order:rw', 'stock:r', 'pricing:r'];

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** Polls until `check` passes: usage is flushed on an interval, not per request. */
async function eventually(check: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('an integrator through the real gateway and commerce processes', function () {
  this.timeout(120_000);
  let system: System;
  let admin: { id: string; secret: string };

  before(async () => {
    system = await startSystem();
    admin = await system.createKey({ name: 'ops', env: 'live', scopes: ['auth:rw', ...ALL_READ] });
  });

  after(async () => {
    await system?.stop();
  });

  const post = (secret: string, path: string, body: unknown) =>
    system.call(secret, path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  describe('with an agency key created through /v2/auth/keys', () => {
    let agency: { id: string; prefix: string; secret: string };

    before(async () => {
      const res = await post(admin.secret, '/v2/auth/keys', {
        name: 'agency',
        environment: 'live',
        scopes: ['article:r', 'order:rw'],
        expiresAt: isoDay(30),
        ipAllowlist: ['127.0.0.1/32', '::1/128'],
        rateLimit: { perMinute: 100 },
      });
      assert.equal(res.status, 201, await res.clone().text());
      agency = await json(res);
      assert.match(agency.secret, /^kg_live_/);
      assert.ok(agency.secret.startsWith(agency.prefix));
    });

    it('reads the catalogue with resolved prices', async () => {
      const res = await system.call(agency.secret, '/v2/catalog/products?limit=5', {
        headers: { 'X-Channel': 'WEB_DE' },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('ratelimit-policy') ?? '', /q=100;w=60/);
      const body = await json<{ data: Array<{ sku: string; price: { gross: number; currency: string } }> }>(
        res,
      );
      assert.equal(body.data.length, 5);
      assert.equal(body.data[0]?.price.currency, 'EUR');
      assert.equal(Number.isInteger(body.data[0]?.price.gross), true);
    });

    it('fills a cart', async () => {
      const products = await json<{ data: Array<{ sku: string; stock: { available: number } }> }>(
        await system.call(agency.secret, '/v2/catalog/products?inStock=true&limit=1', {
          headers: { 'X-Channel': 'WEB_DE' },
        }),
      );
      const sku = products.data[0]!.sku;
      const cart = await json<{ id: string }>(await post(agency.secret, '/v2/carts', { channel: 'WEB_DE' }));
      const added = await post(agency.secret, `/v2/carts/${cart.id}/items`, { sku, qty: 2 });
      assert.ok(added.status === 200 || added.status === 201, await added.clone().text());
      const read = await json<{ lines: Array<{ sku: string; qty: number }>; totals: { gross: number } }>(
        await system.call(agency.secret, `/v2/carts/${cart.id}`),
      );
      assert.equal(read.lines[0]?.sku, sku);
      assert.equal(read.lines[0]?.qty, 2);
      assert.ok(read.totals.gross > 0);
    });

    it('is refused a scope it does not hold, naming the scope', async () => {
      const res = await system.call(agency.secret, '/v2/stock/ANY');
      assert.equal(res.status, 403);
      assert.equal((await json(res)).requiredScope, 'stock:r');
    });

    it('cannot create a key wider than itself', async () => {
      const res = await post(agency.secret, '/v2/auth/keys', {
        name: 'x',
        environment: 'live',
        scopes: ['article:r'],
      });
      assert.equal(res.status, 403, 'an agency key without auth:rw cannot manage keys');
    });
  });

  describe('with a key manager that is itself limited', () => {
    it('refuses every attempt to issue a wider key and changes nothing', async () => {
      const manager = await system.createKey({
        name: 'limited-manager',
        env: 'live',
        scopes: ['auth:rw', 'article:r'],
        extra: ['--expires', isoDay(10), '--ip', '127.0.0.0/8', '--ip', '::1/128'],
      });
      const base = { name: 'child', scopes: ['article:r'], expiresAt: isoDay(5), ipAllowlist: ['127.0.0.1'] };
      const attempts: Array<[string, Record<string, unknown>]> = [
        ['a scope it does not hold', { ...base, scopes: ['order:rw'] }],
        ['auth:rw', { ...base, scopes: ['auth:rw'] }],
        ['another environment', { ...base, environment: 'test' }],
        ['no expiry', { ...base, expiresAt: undefined }],
        ['a later expiry', { ...base, expiresAt: isoDay(20) }],
        ['no IP allowlist', { ...base, ipAllowlist: undefined }],
        ['a wider IP range', { ...base, ipAllowlist: ['0.0.0.0/0'] }],
      ];
      const before = await json<{ items: unknown[] }>(await system.call(manager.secret, '/v2/auth/keys'));
      for (const [what, body] of attempts) {
        const res = await post(manager.secret, '/v2/auth/keys', body);
        assert.equal(res.status, 403, `${what}: ${await res.clone().text()}`);
        assert.equal((await json(res)).code, 'ESCALATION_DENIED', what);
      }
      const widen = await post(manager.secret, `/v2/auth/keys/${manager.id}/scopes`, {
        scopes: ['auth:rw', 'article:r', 'order:r'],
      });
      assert.equal(widen.status, 403, 'a key cannot widen its own scopes');
      const after = await json<{ items: unknown[] }>(await system.call(manager.secret, '/v2/auth/keys'));
      assert.equal(after.items.length, before.items.length, 'no refused request created a key');
      const allowed = await post(manager.secret, '/v2/auth/keys', base);
      assert.equal(allowed.status, 201, await allowed.clone().text());
    });
  });

  describe('with a key whose IP allowlist excludes this machine', () => {
    it('responds 403 and never reaches upstream', async () => {
      const key = await system.createKey({
        name: 'office',
        env: 'live',
        scopes: ['article:r'],
        extra: ['--ip', '10.0.0.0/8'],
      });
      const res = await system.call(key.secret, '/v2/channels', {
        headers: { 'X-Forwarded-For': '10.1.2.3' },
      });
      assert.equal(res.status, 403);
      assert.equal((await json(res)).code, 'IP_NOT_ALLOWED');
    });
  });

  describe('with a small rate limit', () => {
    it('answers 429 with Retry-After once the budget is spent', async () => {
      const key = await system.createKey({
        name: 'tiny',
        env: 'live',
        scopes: ['article:r'],
        extra: ['--rate-limit', '3'],
      });
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) {
        last = await system.call(key.secret, '/v2/channels');
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.ok(Number(last!.headers.get('retry-after')) >= 1);
      assert.match(last!.headers.get('ratelimit') ?? '', /r=0/);
    });
  });

  describe('rotating a key without downtime', () => {
    it('accepts both secrets during the overlap, counts each, then refuses the closed one', async () => {
      const key = await system.createKey({ name: 'rotating', env: 'live', scopes: ['article:r'] });
      const rotated = await post(admin.secret, `/v2/auth/keys/${key.id}:rotate`, { overlapDays: 1 });
      assert.equal(rotated.status, 200, await rotated.clone().text());
      const fresh = (await json<{ secret: string }>(rotated)).secret;
      assert.notEqual(fresh, key.secret);

      assert.equal((await system.call(key.secret, '/v2/channels')).status, 200);
      assert.equal((await system.call(fresh, '/v2/channels')).status, 200);
      assert.equal((await system.call(fresh, '/v2/channels')).status, 200);

      await eventually(async () => {
        const view = await json<{ rotation: { inProgress: boolean; secrets: Array<{ callCount: number }> } }>(
          await system.call(admin.secret, `/v2/auth/keys/${key.id}`),
        );
        assert.equal(view.rotation.inProgress, true);
        assert.deepEqual(view.rotation.secrets.map((s) => s.callCount).sort(), [1, 2]);
      });

      const closed = await post(admin.secret, `/v2/auth/keys/${key.id}:close-old-secret`, {});
      assert.equal(closed.status, 200, await closed.clone().text());
      const refused = await system.call(key.secret, '/v2/channels');
      assert.equal(refused.status, 401);
      assert.equal((await json(refused)).code, 'SECRET_CLOSED');
      assert.equal((await system.call(fresh, '/v2/channels')).status, 200);
    });
  });

  describe('revoking a key', () => {
    it('refuses the very next call, through the API and through the CLI', async () => {
      const viaApi = await system.createKey({ name: 'doomed', env: 'live', scopes: ['article:r'] });
      assert.equal((await system.call(viaApi.secret, '/v2/channels')).status, 200);
      const revoked = await system.call(admin.secret, `/v2/auth/keys/${viaApi.id}`, { method: 'DELETE' });
      assert.ok(revoked.status === 200 || revoked.status === 204);
      const refused = await system.call(viaApi.secret, '/v2/channels');
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.equal((await json(refused)).code, 'KEY_REVOKED');

      const viaCli = await system.createKey({ name: 'doomed-cli', env: 'live', scopes: ['article:r'] });
      assert.equal((await system.call(viaCli.secret, '/v2/channels')).status, 200);
      const cli = await system.keygate('keys', 'revoke', viaCli.id);
      assert.equal(cli.code, 0, cli.stderr);
      assert.equal((await system.call(viaCli.secret, '/v2/channels')).status, 401);
    });
  });

  describe('with a test key', () => {
    it('reaches test data and never live data', async () => {
      const testKey = await system.createKey({ name: 'sandbox', env: 'test', scopes: ALL_READ });
      const liveKey = await system.createKey({ name: 'prod', env: 'live', scopes: ALL_READ });
      const sandboxSku = 'TEST-SANDBOX-1';
      const inTest = await system.call(testKey.secret, `/v2/catalog/products/${sandboxSku}`, {
        headers: { 'X-Channel': 'WEB_DE' },
      });
      assert.equal(inTest.status, 200);
      const inLive = await system.call(liveKey.secret, `/v2/catalog/products/${sandboxSku}`, {
        headers: { 'X-Channel': 'WEB_DE' },
      });
      assert.equal(inLive.status, 404);

      const cart = await json<{ id: string }>(await post(testKey.secret, '/v2/carts', { channel: 'WEB_DE' }));
      assert.equal((await system.call(testKey.secret, `/v2/carts/${cart.id}`)).status, 200);
      assert.equal((await system.call(liveKey.secret, `/v2/carts/${cart.id}`)).status, 404);
    });
  });

  describe('usage and logs', () => {
    it('shows calls per key with percentiles and an API log without secrets', async () => {
      const key = await system.createKey({ name: 'metered', env: 'live', scopes: ['article:r'] });
      for (let i = 0; i < 3; i++) await system.call(key.secret, '/v2/channels');
      await system.call(key.secret, '/v2/stock/X');
      await eventually(async () => {
        const usage = await json<{
          totals: {
            calls: number;
            errors4xx: number;
            errors5xx: number;
            latencyMs: Record<string, number> | null;
          };
          secrets: Array<{ secretId: string; calls: number }>;
        }>(await system.call(admin.secret, `/v2/auth/keys/${key.id}/usage`));
        assert.equal(usage.totals.calls, 4);
        assert.equal(usage.totals.errors4xx, 1);
        assert.equal(usage.totals.errors5xx, 0);
        const latency = usage.totals.latencyMs!;
        assert.ok(latency.p50! > 0 && latency.p50! <= latency.p95! && latency.p95! <= latency.p99!);
        assert.equal(usage.secrets.length, 1);
        assert.equal(usage.secrets[0]?.calls, 4);
      });
      const logsRes = await system.call(admin.secret, `/v2/auth/keys/${key.id}/logs`);
      const logsText = await logsRes.text();
      assert.equal(logsRes.status, 200);
      assert.ok(!logsText.includes(key.secret), 'the API log never contains the secret');
      const activity = await system.call(admin.secret, `/v2/auth/keys/${key.id}/activity`);
      assert.equal(activity.status, 200);
      assert.ok(!(await activity.text()).includes(key.secret));
    });
  });
});
