import assert from 'node:assert/strict';
import express from 'express';
import request from 'supertest';
import {
  coversScopes,
  createIdentitySigner,
  createIdentityVerifier,
  generateIdentityKeyPair,
  getIdentity,
  hasScope,
  type IdentitySigner,
  identityAlgorithmOf,
  normalizeScopes,
  type RequestIdentity,
  requireIdentity,
  requireScope,
} from '../src/index.ts';

const baseIdentity = (over: Partial<RequestIdentity> = {}): RequestIdentity => ({
  keyId: 'key_abc',
  environment: 'live',
  scopes: ['article:r', 'order:rw'],
  secretId: 'sec_1',
  method: 'GET',
  path: '/v2/catalog/products?limit=2',
  requestId: 'req_1',
  ...over,
});

describe('scopes', () => {
  it('lets rw imply r but not the reverse', () => {
    assert.equal(hasScope(['order:rw'], 'order:r'), true);
    assert.equal(hasScope(['order:r'], 'order:rw'), false);
    assert.equal(hasScope(['article:rw'], 'order:r'), false);
  });
  it('checks that one scope set covers another', () => {
    assert.equal(coversScopes(['order:rw', 'article:r'], ['order:r', 'article:r']), true);
    assert.equal(coversScopes(['order:r'], ['order:r', 'stock:r']), false);
  });
  it('normalizes scopes', () => {
    assert.deepEqual(normalizeScopes(['order:r', 'order:rw', 'article:r', 'article:r']), [
      'article:r',
      'order:rw',
    ]);
  });
});

describe('identity assertion', () => {
  let signer: IdentitySigner;
  let otherSigner: IdentitySigner;
  let clock = Date.now();

  before(async () => {
    signer = await createIdentitySigner({
      privateJwk: (await generateIdentityKeyPair()).privateJwk,
      now: () => clock,
    });
    otherSigner = await createIdentitySigner({ privateJwk: (await generateIdentityKeyPair()).privateJwk });
  });

  function appFor(environment: 'live' | 'test' = 'live') {
    const verifier = createIdentityVerifier({ keys: signer.jwks, audience: 'commerce', now: () => clock });
    const app = express();
    app.use(requireIdentity({ verifier, environment }));
    app.get('/v2/catalog/products', requireScope('article:r'), (req, res) => {
      res.json({ identity: getIdentity(req) });
    });
    app.post('/v2/stock/:sku', requireScope('stock:rw'), (_req, res) => {
      res.json({ ok: true });
    });
    return app;
  }

  it('passes a valid assertion and hands the identity to the route', async () => {
    const token = await signer.sign(baseIdentity(), 'commerce');
    const res = await request(appFor()).get('/v2/catalog/products?limit=2').set('X-Keygate-Identity', token);
    assert.equal(res.status, 200);
    assert.equal(res.body.identity.keyId, 'key_abc');
    assert.deepEqual(res.body.identity.scopes, ['article:r', 'order:rw']);
  });

  it('refuses a request without an assertion with 401 problem+json', async () => {
    const res = await request(appFor()).get('/v2/catalog/products?limit=2');
    assert.equal(res.status, 401);
    assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
    assert.equal(res.body.code, 'IDENTITY_MISSING');
  });

  it('refuses a tampered assertion', async () => {
    const token = await signer.sign(baseIdentity(), 'commerce');
    const [h, p, s] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    claims.scp = ['article:rw', 'auth:rw'];
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    const res = await request(appFor()).get('/v2/catalog/products?limit=2').set('X-Keygate-Identity', forged);
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'IDENTITY_INVALID');
  });

  it('refuses an assertion signed by another key', async () => {
    const token = await otherSigner.sign(baseIdentity(), 'commerce');
    const res = await request(appFor()).get('/v2/catalog/products?limit=2').set('X-Keygate-Identity', token);
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'IDENTITY_INVALID');
  });

  it('refuses an expired assertion', async () => {
    const token = await signer.sign(baseIdentity(), 'commerce');
    const app = appFor();
    clock += 120_000;
    try {
      const res = await request(app).get('/v2/catalog/products?limit=2').set('X-Keygate-Identity', token);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'IDENTITY_EXPIRED');
    } finally {
      clock -= 120_000;
    }
  });

  it('refuses an assertion replayed on another path or method', async () => {
    const token = await signer.sign(baseIdentity(), 'commerce');
    const otherPath = await request(appFor())
      .get('/v2/catalog/products?limit=50')
      .set('X-Keygate-Identity', token);
    assert.equal(otherPath.status, 401);
    assert.equal(otherPath.body.code, 'IDENTITY_REQUEST_MISMATCH');
    const otherMethod = await request(appFor())
      .post('/v2/catalog/products?limit=2')
      .set('X-Keygate-Identity', token);
    assert.equal(otherMethod.status, 401);
  });

  it('accepts an assertion once and refuses the same assertion replayed on the same request', async () => {
    const token = await signer.sign(baseIdentity({ requestId: 'req_replayed' }), 'commerce');
    const app = appFor();
    const first = await request(app).get('/v2/catalog/products?limit=2').set('X-Keygate-Identity', token);
    assert.equal(first.status, 200);
    const replay = await request(app).get('/v2/catalog/products?limit=2').set('X-Keygate-Identity', token);
    assert.equal(replay.status, 401);
    assert.equal(replay.body.code, 'IDENTITY_REPLAYED');
  });

  it('refuses an assertion made for another audience', async () => {
    const token = await signer.sign(baseIdentity(), 'billing');
    const res = await request(appFor()).get('/v2/catalog/products?limit=2').set('X-Keygate-Identity', token);
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'IDENTITY_WRONG_AUDIENCE');
  });

  it('refuses an assertion from the other environment with 403', async () => {
    const token = await signer.sign(baseIdentity({ environment: 'test' }), 'commerce');
    const res = await request(appFor('live'))
      .get('/v2/catalog/products?limit=2')
      .set('X-Keygate-Identity', token);
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'ENVIRONMENT_MISMATCH');
  });

  it('enforces the scope carried in the assertion', async () => {
    const token = await signer.sign(baseIdentity({ method: 'POST', path: '/v2/stock/SKU-1' }), 'commerce');
    const res = await request(appFor()).post('/v2/stock/SKU-1').set('X-Keygate-Identity', token);
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'INSUFFICIENT_SCOPE');
    assert.equal(res.body.requiredScope, 'stock:rw');
  });

  it('publishes only public key material', () => {
    for (const key of signer.jwks.keys) {
      assert.equal('d' in key, false);
      assert.equal(key.alg, 'ES256');
      assert.ok(key.kid);
    }
  });
});

describe('identity algorithms', () => {
  const identity = baseIdentity();
  const request = { method: identity.method, path: identity.path };

  it('makes ES256 (P-256) keys unless told otherwise, and EdDSA (Ed25519) keys when asked', async () => {
    const es = await generateIdentityKeyPair();
    const ed = await generateIdentityKeyPair('EdDSA');
    assert.deepEqual([es.publicJwk.kty, es.publicJwk.crv, es.publicJwk.alg], ['EC', 'P-256', 'ES256']);
    assert.deepEqual([ed.publicJwk.kty, ed.publicJwk.crv, ed.publicJwk.alg], ['OKP', 'Ed25519', 'EdDSA']);
    assert.equal(identityAlgorithmOf(es.privateJwk), 'ES256');
    assert.equal(identityAlgorithmOf({ kty: 'EC', crv: 'P-384' }), null);
  });

  it('verifies assertions of both algorithms while the JWKS publishes both keys (an identity-key rollover)', async () => {
    const es = await generateIdentityKeyPair('ES256');
    const ed = await generateIdentityKeyPair('EdDSA');
    const verifier = createIdentityVerifier({
      keys: { keys: [es.publicJwk, ed.publicJwk] },
      audience: 'commerce',
    });
    for (const pair of [es, ed]) {
      const signer = await createIdentitySigner({ privateJwk: pair.privateJwk });
      const mine = { ...identity, requestId: `req_${pair.publicJwk.alg}` };
      const token = await signer.sign(mine, 'commerce');
      const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
      assert.equal(header.alg, pair.publicJwk.alg);
      assert.deepEqual(await verifier.verify(token, request), mine);
    }
  });

  it('refuses an assertion whose kid names a key of the other algorithm', async () => {
    const es = await generateIdentityKeyPair('ES256');
    const ed = await generateIdentityKeyPair('EdDSA');
    const signer = await createIdentitySigner({ privateJwk: es.privateJwk });
    const token = await signer.sign(identity, 'commerce');
    const impostor = { ...ed.publicJwk, kid: es.publicJwk.kid };
    const verifier = createIdentityVerifier({ keys: { keys: [impostor] }, audience: 'commerce' });
    await assert.rejects(verifier.verify(token, request), /not valid/);
  });

  it('refuses to build a signer from a key of another curve', async () => {
    const { privateJwk } = await generateIdentityKeyPair('ES256');
    await assert.rejects(
      createIdentitySigner({ privateJwk: { ...privateJwk, crv: 'P-384' } }),
      /must be a P-256 \(ES256\) or Ed25519 \(EdDSA\) key/,
    );
  });
});
