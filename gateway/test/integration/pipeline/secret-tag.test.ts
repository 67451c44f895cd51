import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createSecretTagger } from '../../../src/keys/secret-tag.ts';
import { checksumOf, randomBase62 } from '../../../src/keys/token.ts';
import { createTaggingHasher } from '../../support/counting-hasher.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

const PRODUCTS = '/v2/catalog/products';

/** A well-formed token (valid checksum) for `lookup` with a random, wrong secret. */
function wrongTokenFor(lookup: string): string {
  const body = `kg_live_${lookup}_${randomBase62(22)}`;
  return body + checksumOf(body);
}

describe('key pipeline: secrets with a keyed tag', () => {
  let gw: TestGateway;
  const get = (bearer: string) => request(gw.app).get(PRODUCTS).set('Authorization', `Bearer ${bearer}`);
  beforeEach(async () => {
    gw = await startTestGateway({ hasher: createTaggingHasher(createSecretTagger(randomBytes(32))) });
  });
  afterEach(() => gw.stop());

  describe('a burst of wrong secrets on a key’s public prefix, before its first use here', () => {
    it('refuses each with 401 UNKNOWN_KEY and no argon2, and the right secret answers 200 without argon2', async () => {
      const { token, secret } = await seedKey(gw.store, gw.hasher);
      const other = await seedKey(gw.store, gw.hasher);
      for (let i = 0; i < 30; i++) {
        const res = await get(wrongTokenFor(secret.lookup));
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'UNKNOWN_KEY');
      }
      assert.equal(gw.hasher.verifications, 0, 'no wrong secret reached argon2');
      assert.equal((await get(token)).status, 200, 'the right secret is not locked out');
      assert.equal((await get(other.token)).status, 200);
      for (let i = 0; i < 3; i++) assert.equal((await get(token)).status, 200);
      assert.equal(gw.hasher.verifications, 0, 'a matching tag is the verification: no argon2 at all');
      const metrics = (await request(gw.app).get('/metrics')).text;
      assert.match(metrics, /keygate_argon2_verifications_refused_total\{reason="tag_mismatch"\} 30/);
      assert.doesNotMatch(metrics, /keygate_argon2_verifications_total\{/, 'the argon2 counter never moved');
      assert.match(metrics, /keygate_tag_verifications_total 2/);
    });
  });

  describe('a secret stored before tags existed (no tag)', () => {
    it('is verified with argon2 as before, then gets its tag, after which wrong secrets skip argon2', async () => {
      const { token, secret } = await seedKey(gw.store, gw.hasher);
      gw.store.secrets.get(secret.id)!.tag = null;
      assert.equal((await get(token)).status, 200);
      assert.equal(gw.hasher.verifications, 1);
      assert.equal(gw.hasher.checkTag!(gw.store.secrets.get(secret.id)!.tag, token), 'match');
      for (let i = 0; i < 10; i++) assert.equal((await get(wrongTokenFor(secret.lookup))).status, 401);
      assert.equal(gw.hasher.verifications, 1);
    });
  });

  describe('a secret tagged with another tag key (an instance not given the shared key)', () => {
    it('is verified with argon2, not refused by the foreign tag, and re-tagged with this key', async () => {
      const { token, secret } = await seedKey(gw.store, gw.hasher);
      const foreign = createSecretTagger(randomBytes(32));
      gw.store.secrets.get(secret.id)!.tag = foreign.tagOf(token);
      assert.equal((await get(token)).status, 200);
      assert.equal(gw.hasher.verifications, 1);
      assert.equal(gw.hasher.checkTag!(gw.store.secrets.get(secret.id)!.tag, token), 'match');
    });
  });
});
