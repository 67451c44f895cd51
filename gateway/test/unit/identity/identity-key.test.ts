import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdentitySigner, createIdentityVerifier, generateIdentityKeyPair } from '@keygate/identity';
import { loadIdentityKey } from '../../../src/identity/identity-key.ts';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'keygate-id-')), 'nested', 'identity-key.json');

describe('loadIdentityKey', () => {
  it('generates a 0600 key file on first start and reuses it afterwards', async () => {
    const keyFile = tempFile();
    const first = await loadIdentityKey({ privateJwk: null, keyFile });
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.equal(first.crv, 'Ed25519');
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
    const identity = {
      keyId: 'key_1',
      environment: 'live' as const,
      scopes: ['article:r'],
      secretId: 'sec_1',
      method: 'GET',
      path: '/v2/x',
      requestId: 'req_1',
    };
    const verifier = createIdentityVerifier({ keys: { keys: [publicJwk] }, audience: 'commerce' });
    assert.deepEqual(await verifier.verify(await signer.sign(identity, 'commerce'), identity), identity);
  });

  it('refuses a key file that is not an Ed25519 private JWK', async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'keygate-id-')), 'identity-key.json');
    writeFileSync(keyFile, JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: 'abc' }));
    await assert.rejects(
      loadIdentityKey({ privateJwk: null, keyFile }),
      /does not hold an Ed25519 private JWK/,
    );
  });
});
