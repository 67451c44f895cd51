import assert from 'node:assert/strict';
import request from 'supertest';
import { checksumOf, randomBase62 } from '../../../src/keys/token.ts';
import { createHeldHasher, type HeldHasher } from '../../support/counting-hasher.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

const PRODUCTS = '/v2/catalog/products';

/** A well-formed token for `lookup` with a random, wrong secret. */
function wrongTokenFor(lookup: string): string {
  const body = `kg_live_${lookup}_${randomBase62(22)}`;
  return body + checksumOf(body);
}

/** Lets the event loop turn until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000 && !condition(); turn++) await new Promise((r) => setImmediate(r));
  assert.ok(condition(), 'condition never held');
}

describe('key pipeline: bounded argon2 work', () => {
  let gw: TestGateway;
  afterEach(() => gw.stop());

  describe('GET /v2/catalog/products with endless wrong secrets for one lookup', () => {
    it('verifies 5 of them, then answers 401 UNKNOWN_KEY without argon2; the cached right token still works', async () => {
      gw = await startTestGateway();
      const { token, secret } = await seedKey(gw.store, gw.hasher);
      const get = (bearer: string) => request(gw.app).get(PRODUCTS).set('Authorization', `Bearer ${bearer}`);
      assert.equal((await get(token)).status, 200);
      for (let i = 0; i < 12; i++) {
        const res = await get(wrongTokenFor(secret.lookup));
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'UNKNOWN_KEY');
      }
      assert.equal(gw.hasher.verifications, 1 + 5);
      assert.equal((await get(token)).status, 200);
      const metrics = (await request(gw.app).get('/metrics')).text;
      assert.match(metrics, /keygate_argon2_verifications_refused_total\{reason="throttled"\} 7/);
    });
  });

  describe('GET /v2/catalog/products beyond KEYGATE_MAX_CONCURRENT_VERIFICATIONS', () => {
    let hasher: HeldHasher;
    beforeEach(async () => {
      hasher = createHeldHasher();
      gw = await startTestGateway({ hasher, env: { KEYGATE_MAX_CONCURRENT_VERIFICATIONS: '1' } });
    });

    it('responds 503 VERIFICATION_BUSY with Retry-After: 1 and reaches no upstream', async () => {
      const first = await seedKey(gw.store, hasher);
      const second = await seedKey(gw.store, hasher);
      const pending = request(gw.app).get(PRODUCTS).set('Authorization', `Bearer ${first.token}`).then();
      await until(() => hasher.waiting === 1);
      const busy = await request(gw.app).get(PRODUCTS).set('Authorization', `Bearer ${second.token}`);
      assert.equal(busy.status, 503);
      assert.equal(busy.body.code, 'VERIFICATION_BUSY');
      assert.equal(busy.headers['retry-after'], '1');
      assert.equal(busy.body.retryAfter, 1);
      assert.equal(gw.live.seen.length, 0);
      hasher.release();
      assert.equal((await pending).status, 200);
      const again = request(gw.app).get(PRODUCTS).set('Authorization', `Bearer ${second.token}`).then();
      await until(() => hasher.waiting === 1);
      hasher.release();
      assert.equal((await again).status, 200);
    });
  });
});
