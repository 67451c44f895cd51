import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createIdentitySigner, createIdentityVerifier, generateIdentityKeyPair } from '@keygate/identity';
import { loadIdentityKey } from '../../../src/identity/identity-key.ts';

const IDENTITY = {
  keyId: 'key_1',
  environment: 'live' as const,
  scopes: ['article:r'],
  secretId: 'sec_1',
  method: 'GET',
  path: '/v2/x',
  requestId: 'req_1',
};

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'keygate-id-')), 'nested', 'identity-key.json');

describe('loadIdentityKey', () => {
  it('generates a 0600 P-256 (ES256) key file on first start and reuses it afterwards', async () => {
    const keyFile = tempFile();
    const first = await loadIdentityKey({ privateJwk: null, keyFile });
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.deepEqual([first.kty, first.crv, first.alg], ['EC', 'P-256', 'ES256']);
    assert.ok(first.d && first.kid);
    const second = await loadIdentityKey({ privateJwk: null, keyFile });
    assert.deepEqual(second, first);
  });

  it('lets concurrent first starts agree on one key', async () => {
    const keyFile = tempFile();
    const keys = await Promise.all(
      Array.from({ length: 5 }, () => loadIdentityKey({ privateJwk: null, keyFile })),
    );
    const stored = JSON.parse(readFileSync(keyFile, 'utf8'));
    for (const key of keys) assert.equal(key.kid, stored.kid);
  });

  it('prefers an explicit JWK, adding its kid, and the signer it makes verifies', async () => {
    const keyFile = tempFile();
    const { privateJwk, publicJwk } = await generateIdentityKeyPair();
    const { kid: _kid, ...withoutKid } = privateJwk;
    const loaded = await loadIdentityKey({ privateJwk: withoutKid, keyFile });
    assert.equal(loaded.kid, publicJwk.kid);
    assert.throws(() => statSync(keyFile), /ENOENT/);
    const signer = await createIdentitySigner({ privateJwk: loaded });
    const verifier = createIdentityVerifier({ keys: { keys: [publicJwk] }, audience: 'commerce' });
    assert.deepEqual(await verifier.verify(await signer.sign(IDENTITY, 'commerce'), IDENTITY), IDENTITY);
  });

  it('keeps signing with an Ed25519 (EdDSA) key file written by an earlier version', async () => {
    const keyFile = tempFile();
    const { privateJwk, publicJwk } = await generateIdentityKeyPair('EdDSA');
    const { alg: _alg, use: _use, ...asWritten } = privateJwk;
    mkdirSync(dirname(keyFile), { recursive: true });
    writeFileSync(keyFile, JSON.stringify(asWritten));
    const loaded = await loadIdentityKey({ privateJwk: null, keyFile });
    assert.deepEqual([loaded.crv, loaded.alg, loaded.kid], ['Ed25519', 'EdDSA', publicJwk.kid]);
    const signer = await createIdentitySigner({ privateJwk: loaded });
    const verifier = createIdentityVerifier({ keys: { keys: [publicJwk] }, audience: 'commerce' });
    assert.deepEqual(await verifier.verify(await signer.sign(IDENTITY, 'commerce'), IDENTITY), IDENTITY);
  });

  for (const [what, jwk] of [
    ['an Ed25519 JWK without d', { kty: 'OKP', crv: 'Ed25519', x: 'abc' }],
    ['a P-256 JWK without y', { kty: 'EC', crv: 'P-256', x: 'abc', d: 'def' }],
    ['a P-384 JWK', { kty: 'EC', crv: 'P-384', x: 'abc', y: 'abc', d: 'def' }],
  ] as const) {
    it(`refuses a key file holding ${what}`, async () => {
      const keyFile = join(mkdtempSync(join(tmpdir(), 'keygate-id-')), 'identity-key.json');
      writeFileSync(keyFile, JSON.stringify(jwk));
      await assert.rejects(
        loadIdentityKey({ privateJwk: null, keyFile }),
        /does not hold a P-256 \(ES256\) or Ed25519 \(EdDSA\) private JWK/,
      );
    });
  }
});
