import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createKeyVerifier, type KeyVerifierOptions } from '../../../src/auth/key-verifier.ts';
import { GatewayError } from '../../../src/errors.ts';
import { createSecretTagger } from '../../../src/keys/secret-tag.ts';
import { checksumOf, generateToken, parseToken, randomBase62 } from '../../../src/keys/token.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import { createTaggingHasher } from '../../support/counting-hasher.ts';
import { createTestClock } from '../../support/gateway.ts';
import { addSecret, seedKey } from '../../support/keys.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

function setup(options: Partial<KeyVerifierOptions> = {}) {
  const store = createMemoryStore();
  const events = createLocalKeyEvents();
  const clock = createTestClock();
  const hasher = createTaggingHasher(createSecretTagger(randomBytes(32)));
  const argon2Results: boolean[] = [];
  let tagVerifications = 0;
  const verifier = createKeyVerifier({
    store,
    hasher,
    events,
    clock,
    maxEntries: 100,
    hooks: { verification: (ok) => argon2Results.push(ok), tagVerified: () => tagVerifications++ },
    ...options,
  });
  const verify = (token: string) => verifier.verify(token, parseToken(token)!);
  const codeOf = async (token: string) => {
    try {
      await verify(token);
      return 'OK';
    } catch (error) {
      assert.ok(error instanceof GatewayError, String(error));
      return error.code;
    }
  };
  return {
    store,
    events,
    clock,
    hasher,
    verifier,
    verify,
    codeOf,
    argon2Results,
    tagVerifications: () => tagVerifications,
  };
}

/** A well-formed token (valid checksum) for `lookup` with a random, wrong secret. */
function wrongTokenFor(lookup: string): string {
  const body = `kg_live_${lookup}_${randomBase62(22)}`;
  return body + checksumOf(body);
}

describe('createKeyVerifier: tags and refusals', () => {
  describe('a secret whose stored tag matches', () => {
    it('is accepted without argon2 (the argon2 counter never moves), once per token', async () => {
      const ctx = setup();
      const { token, key } = await seedKey(ctx.store, ctx.hasher);
      for (let i = 0; i < 3; i++) assert.equal((await ctx.verify(token)).key.id, key.id);
      assert.equal(ctx.hasher.verifications, 0);
      assert.deepEqual(ctx.argon2Results, []);
      assert.equal(ctx.tagVerifications(), 1, 'then served from the fingerprint cache');
      ctx.verifier.close();
    });

    it('lets 200 distinct keys make their first call at once: no 503, no argon2', async () => {
      const ctx = setup({ maxConcurrentVerifications: 2 });
      const seeded = await Promise.all(Array.from({ length: 200 }, () => seedKey(ctx.store, ctx.hasher)));
      const codes = await Promise.all(seeded.map(({ token }) => ctx.codeOf(token)));
      assert.deepEqual(new Set(codes), new Set(['OK']));
      assert.equal(ctx.hasher.verifications, 0);
      ctx.verifier.close();
    });
  });

  describe('a secret without a tag (stored before tags)', () => {
    it('goes through argon2 once and is tagged, then later tokens are decided by the tag', async () => {
      const ctx = setup();
      const { token, secret } = await seedKey(ctx.store, ctx.hasher);
      ctx.store.secrets.get(secret.id)!.tag = null;
      assert.equal(await ctx.codeOf(token), 'OK');
      assert.deepEqual(ctx.argon2Results, [true]);
      assert.equal(ctx.hasher.checkTag!(ctx.store.secrets.get(secret.id)!.tag, token), 'match');
      assert.equal(await ctx.codeOf(wrongTokenFor(secret.lookup)), 'UNKNOWN_KEY');
      assert.deepEqual(ctx.argon2Results, [true], 'the wrong secret never reached argon2');
      ctx.verifier.close();
    });
  });

  describe('a wrong secret on a tagged row', () => {
    it('never runs argon2, however many there are, and locks the right secret out for nobody', async () => {
      const ctx = setup();
      const { token, secret } = await seedKey(ctx.store, ctx.hasher);
      for (let i = 0; i < 50; i++)
        assert.equal(await ctx.codeOf(wrongTokenFor(secret.lookup)), 'UNKNOWN_KEY');
      assert.equal(ctx.hasher.verifications, 0);
      assert.equal(await ctx.codeOf(token), 'OK');
      assert.equal(ctx.hasher.verifications, 0);
      ctx.verifier.close();
    });

    it('is remembered: the same token again reads nothing from the store', async () => {
      const ctx = setup();
      const { secret } = await seedKey(ctx.store, ctx.hasher);
      const wrong = wrongTokenFor(secret.lookup);
      for (let i = 0; i < 5; i++) assert.equal(await ctx.codeOf(wrong), 'UNKNOWN_KEY');
      assert.equal(ctx.store.calls.findByLookup, 1);
      ctx.verifier.close();
    });
  });

  describe('an unknown lookup', () => {
    it('is remembered for the lookup: any secret with it is refused without a store read', async () => {
      const ctx = setup();
      const lookup = randomBase62(8);
      for (let i = 0; i < 5; i++) assert.equal(await ctx.codeOf(wrongTokenFor(lookup)), 'UNKNOWN_KEY');
      assert.equal(ctx.store.calls.findByLookup, 1);
      ctx.verifier.close();
    });

    it('works on its first call once a key is created with it (the creation event forgets the refusal)', async () => {
      const ctx = setup();
      const { key } = await seedKey(ctx.store, ctx.hasher);
      const fresh = generateToken('live');
      assert.equal(await ctx.codeOf(fresh.token), 'UNKNOWN_KEY');
      await addSecret(ctx.store, ctx.hasher, key, {
        lookup: fresh.lookup,
        prefix: fresh.prefix,
        hash: await ctx.hasher.hash(fresh.token),
        tag: ctx.hasher.tag!(fresh.token),
      });
      assert.equal(await ctx.codeOf(fresh.token), 'UNKNOWN_KEY', 'no event yet: still remembered');
      ctx.events.publish(key.id, [fresh.lookup]);
      assert.equal(await ctx.codeOf(fresh.token), 'OK');
      ctx.verifier.close();
    });

    it('is not remembered when its creation was announced while the lookup was being read', async () => {
      const ctx = setup();
      const { key } = await seedKey(ctx.store, ctx.hasher);
      const fresh = generateToken('live');
      const findByLookup = ctx.store.findByLookup;
      ctx.store.findByLookup = async (lookup) => {
        const found = await findByLookup(lookup);
        // The key is committed and announced after the read saw nothing, before its answer arrives.
        await addSecret(ctx.store, ctx.hasher, key, {
          lookup: fresh.lookup,
          prefix: fresh.prefix,
          hash: await ctx.hasher.hash(fresh.token),
          tag: ctx.hasher.tag!(fresh.token),
        });
        ctx.events.publish(key.id, [fresh.lookup]);
        ctx.store.findByLookup = findByLookup;
        return found;
      };
      assert.equal(await ctx.codeOf(fresh.token), 'UNKNOWN_KEY', 'this request raced the creation');
      assert.equal(await ctx.codeOf(fresh.token), 'OK');
      ctx.verifier.close();
    });

    it('is forgotten when the store says another process changed keys (the change marker moved)', async () => {
      const ctx = setup();
      const { key } = await seedKey(ctx.store, ctx.hasher);
      const fresh = generateToken('live');
      assert.equal(await ctx.codeOf(fresh.token), 'UNKNOWN_KEY');
      await addSecret(ctx.store, ctx.hasher, key, {
        lookup: fresh.lookup,
        prefix: fresh.prefix,
        hash: await ctx.hasher.hash(fresh.token),
        tag: ctx.hasher.tag!(fresh.token),
      });
      ctx.store.bumpMarker();
      assert.equal(await ctx.codeOf(fresh.token), 'OK');
      ctx.verifier.close();
    });
  });

  describe('the negative cache', () => {
    it('holds at most its bound, and refusals expire after their lifetime', async () => {
      const ctx = setup({ negativeMaxEntries: 50, negativeTtlMs: 1_000 });
      for (let i = 0; i < 500; i++) await ctx.codeOf(wrongTokenFor(randomBase62(8)));
      assert.equal(ctx.verifier.negativeEntries, 50);
      const lookup = randomBase62(8);
      await ctx.codeOf(wrongTokenFor(lookup));
      await ctx.codeOf(wrongTokenFor(lookup));
      const reads = ctx.store.calls.findByLookup ?? 0;
      ctx.clock.now += 1_000;
      await ctx.codeOf(wrongTokenFor(lookup));
      assert.equal(ctx.store.calls.findByLookup, reads + 1);
      ctx.verifier.close();
    });
  });
});
