import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { createIdentityVerifier } from '@keygate/identity';
import express from 'express';
import request from 'supertest';
import { POLICIES_OFF_KEY_ID } from '../../../src/auth/policies-off.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

const BENCH_ENV = { KEYGATE_POLICIES: 'off', KEYGATE_BENCH_MODE: '1' };

describe('policies-off pipeline (KEYGATE_POLICIES=off, KEYGATE_BENCH_MODE=1)', () => {
  let gw: TestGateway;
  let keysRouterCalls: number;
  beforeEach(async () => {
    keysRouterCalls = 0;
    // A keys router that would answer if it were mounted: the mode must leave it out.
    const keysRouter = express.Router();
    keysRouter.use((_req, res) => {
      keysRouterCalls++;
      res.status(200).json({ items: [] });
    });
    gw = await startTestGateway({ env: BENCH_ENV, keysRouter });
  });
  afterEach(() => gw.stop());

  describe('GET /v2/catalog/products/{sku}', () => {
    describe('with no key at all', () => {
      it('responds 200 from the test upstream with a valid signed identity holding the route scope', async () => {
        const res = await request(gw.app).get('/v2/catalog/products/SKU-1?expand=price');
        assert.equal(res.status, 200);
        assert.equal(res.body.upstream, 'test');
        assert.equal(gw.live.seen.length, 0);
        assert.equal(gw.test.seen.length, 1);
        const seen = gw.test.seen[0]!;
        assert.equal(seen.url, '/v2/catalog/products/SKU-1?expand=price');
        assert.match(String(res.headers['x-request-id']), /^req_/);
        const verifier = createIdentityVerifier({ keys: gw.publicJwks, audience: 'commerce' });
        const identity = await verifier.verify(String(seen.headers['x-keygate-identity']), {
          method: 'GET',
          path: seen.url,
        });
        assert.deepEqual(identity, {
          keyId: POLICIES_OFF_KEY_ID,
          environment: 'test',
          scopes: ['article:r'],
          secretId: 'sec_policies_off',
        });
      });

      it('in request binding, binds the identity to the request', async () => {
        await gw.stop();
        gw = await startTestGateway({ env: { ...BENCH_ENV, KEYGATE_IDENTITY_BINDING: 'request' } });
        const res = await request(gw.app).get('/v2/catalog/products/SKU-1?expand=price');
        assert.equal(res.status, 200);
        const seen = gw.test.seen[0]!;
        const verifier = createIdentityVerifier({ keys: gw.publicJwks, audience: 'commerce' });
        const identity = await verifier.verify(String(seen.headers['x-keygate-identity']), {
          method: 'GET',
          path: seen.url,
        });
        assert.deepEqual(identity, {
          keyId: POLICIES_OFF_KEY_ID,
          environment: 'test',
          scopes: ['article:r'],
          secretId: 'sec_policies_off',
          method: 'GET',
          path: '/v2/catalog/products/SKU-1?expand=price',
          requestId: res.headers['x-request-id'],
        });
      });

      it('reads no key from the store', async () => {
        await request(gw.app).get('/v2/catalog/products/SKU-1').expect(200);
        await request(gw.app).post('/v2/carts').send({}).expect(200);
        assert.equal(gw.store.calls.findByLookup ?? 0, 0);
        assert.equal(gw.store.calls.getKey ?? 0, 0);
        assert.equal(gw.hasher.verifications, 0);
      });
    });

    describe('with a route requiring another scope', () => {
      it('asserts exactly that route scope, also right after a route of another scope', async () => {
        // The fixed callers share key id, secret and version: the key-bound assertion must still differ.
        await request(gw.app).get('/v2/catalog/products/SKU-1').expect(200);
        await request(gw.app).post('/v2/carts').send({}).expect(200);
        const verifier = createIdentityVerifier({ keys: gw.publicJwks, audience: 'commerce' });
        const scopes = [];
        for (const seen of gw.test.seen) {
          const identity = await verifier.verify(String(seen.headers['x-keygate-identity']), {
            method: String(seen.method),
            path: seen.url,
          });
          scopes.push(identity.scopes);
        }
        assert.deepEqual(scopes, [['article:r'], ['order:rw']]);
      });
    });
  });

  describe('GET /v2/auth/keys', () => {
    describe('even with a valid key', () => {
      it('responds 404 problem+json: there is no key API in this mode', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
        for (const path of ['/v2/auth/keys', '/v2/auth/keys/key_x']) {
          const res = await request(gw.app).get(path).set('Authorization', `Bearer ${token}`);
          assert.equal(res.status, 404, path);
          assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
          assert.equal(res.body.code, 'ROUTE_NOT_FOUND');
        }
        const created = await request(gw.app)
          .post('/v2/auth/keys')
          .set('Authorization', `Bearer ${token}`)
          .send({ name: 'x', environment: 'test', scopes: ['article:r'] });
        assert.equal(created.status, 404);
        assert.equal(keysRouterCalls, 0);
        assert.equal(gw.test.seen.length + gw.live.seen.length, 0);
      });
    });
  });

  describe('GET on a path with no route', () => {
    it('responds 404 and proxies nothing', async () => {
      const res = await request(gw.app).get('/v2/nowhere');
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'ROUTE_NOT_FOUND');
      assert.equal(gw.test.seen.length + gw.live.seen.length, 0);
    });
  });
});

describe('key pipeline (policies on), for contrast', () => {
  let gw: TestGateway;
  afterEach(() => gw.stop());

  it('responds 401 to a request without a key and proxies nothing', async () => {
    gw = await startTestGateway();
    const res = await request(gw.app).get('/v2/catalog/products/SKU-1');
    assert.equal(res.status, 401);
    assert.equal(gw.test.seen.length + gw.live.seen.length, 0);
  });
});

describe('API log off (KEYGATE_API_LOG=off, KEYGATE_BENCH_MODE=1)', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startTestGateway({ env: { KEYGATE_API_LOG: 'off', KEYGATE_BENCH_MODE: '1' } });
  });
  afterEach(() => gw.stop());

  it('still checks keys and counts usage, but keeps no API log line', async () => {
    const { key, token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
    await request(gw.app).get('/v2/catalog/products/SKU-1').expect(401);
    await request(gw.app)
      .get('/v2/catalog/products/SKU-1')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    for (let i = 0; i < 1000 && gw.recorder.pending().buckets === 0; i++) await turn();
    await gw.recorder.flush();
    const calls = gw.store.usage.flat().filter((bucket) => bucket.keyId === key.id);
    assert.equal(
      calls.reduce((sum, bucket) => sum + bucket.calls, 0),
      1,
    );
    assert.deepEqual(gw.store.logs, []);
  });
});
