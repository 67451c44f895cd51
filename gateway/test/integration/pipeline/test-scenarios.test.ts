import assert from 'node:assert/strict';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { closedPortUrl, startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';

/** What a client sees of an answer: status, problem+json body (minus per-request ids) and the headers that matter. */
function shapeOf(res: request.Response) {
  const { instance: _instance, requestId: _requestId, ...body } = res.body as Record<string, unknown>;
  return {
    status: res.status,
    contentType: res.headers['content-type'],
    body,
    retryAfter: res.headers['retry-after'],
    rateLimitPolicy: res.headers['ratelimit-policy'],
    hasRateLimit: res.headers.ratelimit !== undefined,
  };
}

describe('key pipeline: Keygate-Test-Scenario', () => {
  let gw: TestGateway;
  let real: TestGateway | undefined;
  let hanging: TestUpstream | undefined;
  beforeEach(async () => {
    gw = await startTestGateway({ env: { KEYGATE_UPSTREAM_TIMEOUT_MS: '150' } });
  });
  afterEach(async () => {
    await gw.stop();
    await real?.stop();
    real = undefined;
    await hanging?.close();
    hanging = undefined;
  });

  const get = (app: TestGateway['app'], token: string, scenario?: string) => {
    const req = request(app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
    return scenario ? req.set('Keygate-Test-Scenario', scenario) : req;
  };

  describe('with a test key', () => {
    it('rate-limited: answers the real 429 (problem, Retry-After, RateLimit) and leaves the budget alone', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { environment: 'test', perMinute: 1 });
      const forced = await get(gw.app, token, 'rate-limited');
      assert.equal(forced.headers.ratelimit, '"per-key";r=0;t=60');
      assert.equal(forced.body.retryAfter, 60);
      // The real one: a second call on a budget of one.
      const other = await seedKey(gw.store, gw.hasher, { environment: 'test', perMinute: 1 });
      assert.equal((await get(gw.app, other.token)).status, 200);
      const genuine = await get(gw.app, other.token);
      assert.equal(genuine.status, 429);
      const expected = shapeOf(genuine);
      const actual = shapeOf(forced);
      // Retry-After counts down in a real window; the forced one reports a full window.
      assert.deepEqual(
        { ...actual, retryAfter: 'n', body: { ...actual.body, retryAfter: 'n', detail: 'd' } },
        { ...expected, retryAfter: 'n', body: { ...expected.body, retryAfter: 'n', detail: 'd' } },
      );
      assert.match(String(forced.body.detail), /^This key allows 1 calls per minute; retry in 60 s\.$/);
      assert.equal(gw.test.seen.length, 1, 'only the real call reached the upstream');
      // The forced key's one call is still there.
      assert.equal((await get(gw.app, token)).status, 200);
    });

    it('forbidden: answers the real 403 INSUFFICIENT_SCOPE and never reaches the upstream', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
      const forced = await get(gw.app, token, 'forbidden');
      const lacking = await seedKey(gw.store, gw.hasher, { environment: 'test', scopes: ['order:r'] });
      const genuine = await get(gw.app, lacking.token);
      assert.equal(genuine.status, 403);
      assert.deepEqual(shapeOf(forced), shapeOf(genuine));
      assert.equal(forced.body.requiredScope, 'article:r');
      assert.equal(gw.test.seen.length, 0);
    });

    it('upstream-unavailable: answers the real 502 with the rate-limit headers', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
      const forced = await get(gw.app, token, 'upstream-unavailable');
      real = await startTestGateway({ upstreamUrls: { test: await closedPortUrl() } });
      const down = await seedKey(real.store, real.hasher, { environment: 'test' });
      const genuine = await get(real.app, down.token);
      assert.equal(genuine.status, 502);
      assert.deepEqual(shapeOf(forced), shapeOf(genuine));
      assert.equal(forced.headers.ratelimit, '"per-key";r=1000;t=60', 'the budget is not consumed');
      assert.equal(gw.test.seen.length, 0);
    });

    it('upstream-timeout: answers the real 504 naming the configured timeout', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
      const forced = await get(gw.app, token, 'upstream-timeout');
      hanging = await startEchoUpstream('hang', { hang: true });
      real = await startTestGateway({
        upstreamUrls: { test: hanging.url },
        env: { KEYGATE_UPSTREAM_TIMEOUT_MS: '150' },
      });
      const silent = await seedKey(real.store, real.hasher, { environment: 'test' });
      const genuine = await get(real.app, silent.token);
      assert.equal(genuine.status, 504);
      assert.deepEqual(shapeOf(forced), shapeOf(genuine));
      assert.equal(gw.test.seen.length, 0);
    });

    it('an unknown scenario: 400 MALFORMED_REQUEST listing the values', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
      const res = await get(gw.app, token, 'meltdown');
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'MALFORMED_REQUEST');
      assert.match(res.body.detail, /rate-limited, upstream-unavailable, upstream-timeout, forbidden/);
      assert.equal(gw.test.seen.length, 0);
    });

    it('does not count forced refusals as rate-limited or auth failures in /metrics', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
      await get(gw.app, token, 'rate-limited');
      await get(gw.app, token, 'forbidden');
      const metrics = (await request(gw.app).get('/metrics')).text;
      assert.doesNotMatch(metrics, /^keygate_rate_limited_total [1-9]/m);
      assert.doesNotMatch(metrics, /^keygate_auth_failures_total\{[^}]*\} [1-9]/m);
    });

    it('a scenario on a management route (rate-limited) answers 429 too', async () => {
      const { key, token } = await seedKey(gw.store, gw.hasher, { environment: 'test', scopes: ['auth:rw'] });
      const res = await request(gw.app)
        .get(`/v2/auth/keys/${key.id}`)
        .set('Authorization', `Bearer ${token}`)
        .set('Keygate-Test-Scenario', 'rate-limited');
      assert.equal(res.status, 429);
      assert.equal(res.headers['retry-after'], '60');
    });
  });

  describe('with a live key', () => {
    it('ignores the header and strips it before the upstream', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, { environment: 'live' });
      const res = await get(gw.app, token, 'rate-limited');
      assert.equal(res.status, 200);
      assert.equal(gw.live.seen.length, 1);
      assert.equal(gw.live.seen[0]!.headers['keygate-test-scenario'], undefined);
    });
  });
});
