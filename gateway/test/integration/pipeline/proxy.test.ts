import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createIdentityVerifier } from '@keygate/identity';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { rawRequest } from '../../support/raw-request.ts';

describe('key pipeline: routing and proxying', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startTestGateway();
  });
  afterEach(() => gw.stop());

  const reached = () => gw.live.seen.length + gw.test.seen.length;

  describe('POST /v2/carts', () => {
    describe('with a key lacking order:rw', () => {
      it('responds 403 INSUFFICIENT_SCOPE with requiredScope and never reaches upstream', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:rw', 'order:r'] });
        const res = await request(gw.app).post('/v2/carts').set('Authorization', `Bearer ${token}`).send({});
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'INSUFFICIENT_SCOPE');
        assert.equal(res.body.requiredScope, 'order:rw');
        assert.equal(reached(), 0);
      });
    });

    describe('with a large body', () => {
      it('streams it to the upstream intact', async () => {
        const { token } = await seedKey(gw.store, gw.hasher);
        const body = randomBytes(5 * 1024 * 1024);
        const res = await request(gw.app)
          .post('/v2/carts')
          .set('Authorization', `Bearer ${token}`)
          .set('Content-Type', 'application/octet-stream')
          .send(body);
        assert.equal(res.status, 200);
        assert.equal(res.body.bodyBytes, body.length);
        assert.equal(res.body.bodySha256, createHash('sha256').update(body).digest('hex'));
      });
    });
  });

  describe('GET /v2/catalog/products/{sku}', () => {
    describe('with a test key and a live key', () => {
      it('routes each only to the upstream of its own environment', async () => {
        const live = await seedKey(gw.store, gw.hasher, { environment: 'live' });
        const test = await seedKey(gw.store, gw.hasher, { environment: 'test' });
        const fromTest = await request(gw.app)
          .get('/v2/catalog/products/SKU-1')
          .set('Authorization', `Bearer ${test.token}`);
        assert.equal(fromTest.body.upstream, 'test');
        assert.deepEqual([gw.live.seen.length, gw.test.seen.length], [0, 1]);
        const fromLive = await request(gw.app)
          .get('/v2/catalog/products/SKU-1')
          .set('Authorization', `Bearer ${live.token}`);
        assert.equal(fromLive.body.upstream, 'live');
        assert.deepEqual([gw.live.seen.length, gw.test.seen.length], [1, 1]);
      });
    });

    describe('with client-sent identity headers', () => {
      it('strips them and Authorization, and a valid key-bound identity arrives upstream', async () => {
        const { key, secret, token } = await seedKey(gw.store, gw.hasher);
        const seen = await sendForged(token);
        assert.equal(seen.headers.authorization, undefined);
        assert.equal(seen.headers['x-keygate-anything'], undefined);
        assert.equal(seen.headers['x-keygate-key-id'], key.id);
        assert.equal(seen.headers['x-keygate-environment'], 'live');
        assert.equal(seen.headers['x-keygate-scopes'], 'article:r,order:rw');
        const verifier = createIdentityVerifier({ keys: gw.publicJwks, audience: 'commerce' });
        const identity = await verifier.verify(String(seen.headers['x-keygate-identity']), {
          method: 'GET',
          path: seen.url,
        });
        assert.deepEqual(identity, {
          keyId: key.id,
          environment: 'live',
          scopes: ['article:r', 'order:rw'],
          secretId: secret.id,
        });
      });

      describe('in request binding (KEYGATE_IDENTITY_BINDING=request)', () => {
        beforeEach(async () => {
          await gw.stop();
          gw = await startTestGateway({ env: { KEYGATE_IDENTITY_BINDING: 'request' } });
        });

        it('strips them, and an identity bound to the request arrives upstream', async () => {
          const { key, secret, token } = await seedKey(gw.store, gw.hasher);
          const seen = await sendForged(token);
          assert.equal(seen.headers.authorization, undefined);
          assert.equal(seen.headers['x-keygate-key-id'], key.id);
          const verifier = createIdentityVerifier({ keys: gw.publicJwks, audience: 'commerce' });
          const identity = await verifier.verify(String(seen.headers['x-keygate-identity']), {
            method: 'GET',
            path: seen.url,
          });
          assert.deepEqual(identity, {
            keyId: key.id,
            environment: 'live',
            scopes: ['article:r', 'order:rw'],
            secretId: secret.id,
            method: 'GET',
            path: '/v2/catalog/products/SKU-1?expand=price&x=1',
            requestId: seen.headers['x-request-id'],
          });
        });
      });
    });
  });

  /** Sends a call with forged identity headers; returns what the live upstream saw. */
  async function sendForged(token: string) {
    const res = await request(gw.app)
      .get('/v2/catalog/products/SKU-1?expand=price&x=1')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Keygate-Identity', 'forged')
      .set('X-Keygate-Key-Id', 'key_admin')
      .set('X-Keygate-Scopes', 'auth:rw')
      .set('X-Keygate-Anything', 'forged')
      .set('X-Request-Id', 'client-chosen');
    assert.equal(res.status, 200);
    const seen = gw.live.seen.at(-1)!;
    assert.equal(seen.url, '/v2/catalog/products/SKU-1?expand=price&x=1');
    assert.match(String(seen.headers['x-request-id']), /^req_/);
    assert.equal(seen.headers['x-request-id'], res.headers['x-request-id']);
    return seen;
  }

  describe('GET /v2/catalog/products/{sku}, 24 requests at once', () => {
    /** Sends 24 calls at once with one key; returns the identity headers the upstream saw. */
    async function sendConcurrently(): Promise<{ url: string; requestId: unknown; assertion: string }[]> {
      const { token } = await seedKey(gw.store, gw.hasher);
      const responses = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          request(gw.app).get(`/v2/catalog/products/SKU-${i}`).set('Authorization', `Bearer ${token}`),
        ),
      );
      assert.deepEqual(
        responses.map((res) => res.status),
        responses.map(() => 200),
      );
      assert.equal(new Set(gw.live.seen.map((seen) => seen.url)).size, 24);
      return gw.live.seen.map((seen) => ({
        url: seen.url,
        requestId: seen.headers['x-request-id'],
        assertion: String(seen.headers['x-keygate-identity']),
      }));
    }

    it('delivers all of them with one key-bound assertion, signed once', async () => {
      const seen = await sendConcurrently();
      assert.equal(new Set(seen.map((one) => one.assertion)).size, 1);
      const verifier = createIdentityVerifier({ keys: gw.publicJwks, audience: 'commerce' });
      const identity = await verifier.verify(seen[0]!.assertion, { method: 'GET', path: seen[0]!.url });
      assert.equal(identity.requestId, undefined);
      assert.equal(new Set(seen.map((one) => one.requestId)).size, 24, 'each keeps its own X-Request-Id');
    });

    describe('in request binding', () => {
      beforeEach(async () => {
        await gw.stop();
        gw = await startTestGateway({ env: { KEYGATE_IDENTITY_BINDING: 'request' } });
      });

      it('delivers each with a valid identity bound to its own path and request id (signed inline or in the worker)', async () => {
        const verifier = createIdentityVerifier({ keys: gw.publicJwks, audience: 'commerce' });
        for (const seen of await sendConcurrently()) {
          const identity = await verifier.verify(seen.assertion, { method: 'GET', path: seen.url });
          assert.equal(identity.requestId, seen.requestId);
        }
      });
    });
  });

  describe('GET on a path the route table does not know', () => {
    it('responds 404 ROUTE_NOT_FOUND without touching an upstream', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, {
        scopes: ['article:rw', 'order:rw', 'stock:rw'],
      });
      for (const path of [
        '/v2/nothing',
        '/v2/catalog/products/a/b',
        '/v2/carts/1:explode',
        '/v2/catalog/products/',
      ]) {
        const res = await request(gw.app).get(path).set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 404, path);
        assert.equal(res.body.code, 'ROUTE_NOT_FOUND');
      }
      const wrongMethod = await request(gw.app).delete('/v2/carts').set('Authorization', `Bearer ${token}`);
      assert.equal(wrongMethod.status, 404);
      assert.equal(reached(), 0);
    });
  });

  describe('GET with `#` or another character a URL path may not hold', () => {
    it('responds 400 MALFORMED_REQUEST before looking at the key and never reaches the upstream', async () => {
      const { token } = await seedKey(gw.store, gw.hasher, {
        scopes: ['customer:r', 'pricing:r', 'auth:rw'],
      });
      for (const path of [
        '/v2/customers/c1#/pricing',
        '/v2/customers/c1/pricing?a=1#x',
        '/v2/customers/c1%7C{x}/pricing',
        '/v2/auth/keys#/x',
      ]) {
        const res = await rawRequest(gw.app, path, { headers: { Authorization: `Bearer ${token}` } });
        assert.equal(res.status, 400, path);
        assert.equal(res.body.code, 'MALFORMED_REQUEST', path);
      }
      assert.equal(gw.hasher.verifications, 0);
      assert.equal(reached(), 0);
    });
  });

  describe('GET on another API version or an ambiguous path', () => {
    it('responds 404 before looking at the key', async () => {
      for (const [path, code] of [
        ['/v1/catalog/products', 'UNKNOWN_API_VERSION'],
        ['/v3/catalog/products', 'UNKNOWN_API_VERSION'],
        ['/v2/catalog/../carts/1', 'ROUTE_NOT_FOUND'],
        ['/v2/catalog/%2e%2e/carts/1', 'ROUTE_NOT_FOUND'],
        ['/v2/catalog/products/a%2fb', 'ROUTE_NOT_FOUND'],
        ['/v2//catalog/products', 'ROUTE_NOT_FOUND'],
        ['/v1/../v2/catalog/products', 'ROUTE_NOT_FOUND'],
      ] as const) {
        const res = await rawRequest(gw.app, path);
        assert.equal(res.status, 404, path);
        assert.equal(res.body.code, code, path);
      }
      assert.equal(gw.store.totalCalls(), 0);
      assert.equal(reached(), 0);
    });
  });
});
