import assert from 'node:assert/strict';
import express from 'express';
import { importJWK, SignJWT } from 'jose';
import request from 'supertest';
import {
  createIdentitySigner,
  createIdentityVerifier,
  generateIdentityKeyPair,
  getIdentity,
  type Identity,
  type IdentityKeyPair,
  type IdentitySigner,
  requireIdentity,
} from '../src/index.ts';
import { createVerifiedAssertions } from '../src/verified-assertions.ts';

const KEY_IDENTITY: Identity = {
  keyId: 'key_abc',
  environment: 'live',
  scopes: ['article:r', 'order:rw'],
  secretId: 'sec_1',
};
const START = Date.parse('2026-01-15T12:00:00.000Z');

/** Counts WebCrypto signature checks (what jose verifies with) while `run` runs. */
async function countSignatureChecks(run: () => Promise<void>): Promise<number> {
  const subtle = globalThis.crypto.subtle;
  const original = subtle.verify;
  let checks = 0;
  subtle.verify = (...args: Parameters<typeof original>) => {
    checks++;
    return original.apply(subtle, args);
  };
  try {
    await run();
  } finally {
    subtle.verify = original;
  }
  return checks;
}

describe('key-bound identity assertions', () => {
  let pair: IdentityKeyPair;
  let signer: IdentitySigner;
  let clock = START;
  before(async () => {
    pair = await generateIdentityKeyPair();
    signer = await createIdentitySigner({ privateJwk: pair.privateJwk, now: () => clock });
  });
  beforeEach(() => {
    clock = START;
  });
  const verifierWith = (options: Partial<Parameters<typeof createIdentityVerifier>[0]> = {}) =>
    createIdentityVerifier({ keys: signer.jwks, audience: 'commerce', now: () => clock, ...options });

  describe('signed without a request', () => {
    it('names no method, path or jti', async () => {
      const token = await signer.sign(KEY_IDENTITY, 'commerce');
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
      assert.deepEqual(Object.keys(claims).sort(), ['aud', 'env', 'exp', 'iat', 'iss', 'scp', 'sid', 'sub']);
    });

    it('is accepted for any request, again and again, and carries the key identity only', async () => {
      const verifier = verifierWith();
      const token = await signer.sign(KEY_IDENTITY, 'commerce');
      for (const call of [
        { method: 'GET', path: '/v2/catalog/products' },
        { method: 'POST', path: '/v2/carts' },
        { method: 'GET', path: '/v2/catalog/products' },
      ]) {
        assert.deepEqual(await verifier.verify(token, call), KEY_IDENTITY);
      }
    });
  });

  describe('verified once', () => {
    it('is not checked again until it expires, and is refused after', async () => {
      const verifier = verifierWith();
      const token = await signer.sign(KEY_IDENTITY, 'commerce');
      const call = { method: 'GET', path: '/v2/catalog/products' };
      const checks = await countSignatureChecks(async () => {
        for (let i = 0; i < 20; i++) await verifier.verify(token, call);
      });
      assert.equal(checks, 1);
      // 60 s of life and 5 s of tolerated skew: accepted just before, refused after.
      clock = START + 64_000;
      assert.deepEqual(await verifier.verify(token, call), KEY_IDENTITY);
      clock = START + 66_000;
      await assert.rejects(verifier.verify(token, call), { code: 'IDENTITY_EXPIRED' });
    });

    it('hands each caller its own copy: changing one changes no later answer', async () => {
      const verifier = verifierWith();
      const token = await signer.sign(KEY_IDENTITY, 'commerce');
      const first = await verifier.verify(token, { method: 'GET', path: '/' });
      first.scopes.push('auth:rw');
      first.keyId = 'key_admin';
      assert.deepEqual(await verifier.verify(token, { method: 'GET', path: '/' }), KEY_IDENTITY);
    });

    it('is checked every time with maxCachedAssertions 0', async () => {
      const verifier = verifierWith({ maxCachedAssertions: 0 });
      const token = await signer.sign(KEY_IDENTITY, 'commerce');
      const checks = await countSignatureChecks(async () => {
        for (let i = 0; i < 3; i++) await verifier.verify(token, { method: 'GET', path: '/' });
      });
      assert.equal(checks, 3);
    });

    it('does not make a token differing in one byte of its signature acceptable', async () => {
      const verifier = verifierWith();
      const token = await signer.sign(KEY_IDENTITY, 'commerce');
      await verifier.verify(token, { method: 'GET', path: '/' });
      const last = token.at(-2) === 'A' ? 'B' : 'A';
      const forged = `${token.slice(0, -2)}${last}${token.at(-1)}`;
      await assert.rejects(verifier.verify(forged, { method: 'GET', path: '/' }), {
        code: 'IDENTITY_INVALID',
      });
    });
  });

  describe('request-bound assertions beside them', () => {
    it('are still accepted once only (the replay cache stays)', async () => {
      const verifier = verifierWith();
      const call = { method: 'GET', path: '/v2/catalog/products' };
      const token = await signer.sign({ ...KEY_IDENTITY, ...call, requestId: 'req_1' }, 'commerce');
      assert.equal((await verifier.verify(token, call)).requestId, 'req_1');
      await assert.rejects(verifier.verify(token, call), { code: 'IDENTITY_REPLAYED' });
    });
  });

  describe('with `bindings` pinned', () => {
    it("refuses a key-bound assertion where only 'request' is accepted, and the reverse", async () => {
      const call = { method: 'GET', path: '/v2/catalog/products' };
      const keyBound = await signer.sign(KEY_IDENTITY, 'commerce');
      const requestBound = await signer.sign({ ...KEY_IDENTITY, ...call, requestId: 'req_2' }, 'commerce');
      await assert.rejects(verifierWith({ bindings: ['request'] }).verify(keyBound, call), {
        code: 'IDENTITY_REQUEST_MISMATCH',
      });
      await assert.rejects(verifierWith({ bindings: ['key'] }).verify(requestBound, call), {
        code: 'IDENTITY_REQUEST_MISMATCH',
      });
    });
  });

  describe('naming part of a request only', () => {
    it('is refused as lacking claims (neither binding)', async () => {
      const key = await importJWK(pair.privateJwk, 'ES256');
      const token = await new SignJWT({ env: 'live', scp: ['article:r'], sid: 'sec_1', htm: 'GET' })
        .setProtectedHeader({ alg: 'ES256', kid: pair.privateJwk.kid, typ: 'keygate-id+jwt' })
        .setIssuer('keygate')
        .setSubject('key_abc')
        .setAudience('commerce')
        .setIssuedAt(START / 1000)
        .setExpirationTime(START / 1000 + 60)
        .sign(key);
      await assert.rejects(verifierWith().verify(token, { method: 'GET', path: '/' }), {
        code: 'IDENTITY_INVALID',
      });
    });
  });

  describe('through requireIdentity', () => {
    it('lets the same assertion through on several routes and exposes the key identity', async () => {
      const app = express();
      app.use(requireIdentity({ verifier: verifierWith(), environment: 'live' }));
      app.all('/{*rest}', (req, res) => {
        res.json(getIdentity(req));
      });
      const token = await signer.sign(KEY_IDENTITY, 'commerce');
      for (const path of ['/v2/catalog/products', '/v2/carts', '/v2/orders/ord_1']) {
        const res = await request(app).get(path).set('X-Keygate-Identity', token);
        assert.equal(res.status, 200, path);
        assert.deepEqual(res.body, KEY_IDENTITY);
      }
    });
  });
});

describe('verified assertion cache', () => {
  it('drops the least recently used beyond its bound', () => {
    const cache = createVerifiedAssertions(2);
    cache.set('a', KEY_IDENTITY, START + 60_000, START);
    cache.set('b', KEY_IDENTITY, START + 60_000, START);
    assert.ok(cache.get('a', START));
    cache.set('c', KEY_IDENTITY, START + 60_000, START);
    assert.ok(cache.get('a', START));
    assert.equal(cache.get('b', START), undefined);
    assert.ok(cache.get('c', START));
  });

  it('forgets an entry at its expiry and never keeps one already expired', () => {
    const cache = createVerifiedAssertions(10);
    cache.set('a', KEY_IDENTITY, START + 1_000, START);
    cache.set('old', KEY_IDENTITY, START - 1, START);
    assert.ok(cache.get('a', START + 999));
    assert.equal(cache.get('a', START + 1_000), undefined);
    assert.equal(cache.get('old', START), undefined);
  });
});
