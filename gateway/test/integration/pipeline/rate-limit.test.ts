import assert from 'node:assert/strict';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { addSecret, seedKey } from '../../support/keys.ts';

describe('key pipeline: rate limit', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startTestGateway();
  });
  afterEach(() => gw.stop());

  const get = (token: string) =>
    request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);

  describe('GET /v2/catalog/products', () => {
    describe('with a key allowing 3 calls per minute', () => {
      it('sends RateLimit headers on every call and answers the 4th with 429 and Retry-After', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { perMinute: 3 });
        for (const remaining of [2, 1, 0]) {
          const res = await get(token);
          assert.equal(res.status, 200);
          assert.equal(res.headers['ratelimit-policy'], '"per-key";q=3;w=60');
          assert.match(res.headers.ratelimit ?? '', new RegExp(`^"per-key";r=${remaining};t=\\d+$`));
        }
        const refused = await get(token);
        assert.equal(refused.status, 429);
        assert.equal(refused.body.code, 'RATE_LIMITED');
        const retryAfter = Number(refused.headers['retry-after']);
        assert.ok(
          Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
          `Retry-After ${retryAfter}`,
        );
        assert.equal(refused.body.retryAfter, retryAfter);
        assert.equal(refused.headers['ratelimit-policy'], '"per-key";q=3;w=60');
        assert.equal(refused.headers.ratelimit, `"per-key";r=0;t=${retryAfter}`);
        assert.equal(gw.live.seen.length, 3);
      });
    });

    describe('with a rotated key (two secrets)', () => {
      it('shares one budget between both secrets', async () => {
        const { key, token } = await seedKey(gw.store, gw.hasher, { perMinute: 2 });
        const second = await addSecret(gw.store, gw.hasher, key);
        assert.equal((await get(token)).status, 200);
        assert.equal((await get(second.token)).status, 200);
        assert.equal((await get(token)).status, 429);
        assert.equal((await get(second.token)).status, 429);
      });
    });

    describe('with two keys', () => {
      it('keeps separate budgets', async () => {
        const first = await seedKey(gw.store, gw.hasher, { perMinute: 1 });
        const other = await seedKey(gw.store, gw.hasher, { perMinute: 1 });
        assert.equal((await get(first.token)).status, 200);
        assert.equal((await get(first.token)).status, 429);
        assert.equal((await get(other.token)).status, 200);
      });
    });
  });
});
