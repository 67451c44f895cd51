import assert from 'node:assert/strict';
import { generateIdentityKeyPair, type Identity } from '@keygate/identity';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import {
  type AssertionCallback,
  type AssertionSigning,
  type AssertionSubject,
  createAssertionCache,
} from '../../../src/identity/assertion-cache.ts';
import { createGatewayIdentitySigner } from '../../../src/identity/identity-signer.ts';

const START = Date.parse('2026-01-15T12:00:00.000Z');
const TTL = 60;

/** A signer stand-in: counts signatures, signs inline at once, holds off-thread ones until released. */
function createFakeSigning() {
  let serial = 0;
  const held: Array<{ identity: Identity; done: AssertionCallback }> = [];
  const signing = {
    clock: START,
    inline: 0,
    offThread: 0,
    failNext: null as Error | null,
    held,
    signNow(identity: Identity, audience: string) {
      signing.inline++;
      if (signing.failNext) {
        const error = signing.failNext;
        signing.failNext = null;
        throw error;
      }
      return `inline-${++serial}-${identity.keyId}-${identity.scopes.join(',')}-${audience}`;
    },
    signOffThread(identity: Identity, _audience: string, done: AssertionCallback) {
      signing.offThread++;
      held.push({ identity, done });
    },
    /** Answers the oldest held off-thread signature (or fails it with `error`). */
    release(error: Error | null = null) {
      const next = held.shift();
      assert.ok(next, 'no off-thread signature is under way');
      next.done(error, error ? '' : `worker-${++serial}-${next.identity.keyId}`);
    },
    ttlSeconds: TTL,
    now: () => signing.clock,
  };
  return signing satisfies AssertionSigning;
}

function subject(over: { version?: number; scopes?: string[]; secretId?: string; keyId?: string } = {}) {
  return {
    key: {
      id: over.keyId ?? 'key_a',
      environment: 'live',
      scopes: over.scopes ?? ['article:r'],
      version: over.version ?? 1,
    },
    secret: { id: over.secretId ?? 'sec_a' },
  } satisfies AssertionSubject;
}

/** Signs through the cache and returns the callback's answer (synchronous for inline signing). */
function signedNow(
  cache: ReturnType<typeof createAssertionCache>,
  who: AssertionSubject,
  audience = 'commerce',
) {
  let answer: string | Error | undefined;
  cache.sign(who, audience, false, (error, assertion) => {
    answer = error ?? assertion;
  });
  assert.notEqual(answer, undefined, 'an inline signature answers before sign returns');
  return answer;
}

describe('assertion cache (KEYGATE_IDENTITY_BINDING=key)', () => {
  describe('for one caller calling again and again', () => {
    it('signs once and hands the same assertion out until 40 % of its life is gone', () => {
      const signing = createFakeSigning();
      const cache = createAssertionCache(signing, 100);
      const who = subject();
      assert.equal(cache.peek(who, 'commerce'), null);
      const first = signedNow(cache, who);
      for (const seconds of [0, 1, 10, 23]) {
        signing.clock = START + seconds * 1000;
        assert.equal(cache.peek(who, 'commerce'), first);
      }
      assert.equal(signing.inline + signing.offThread, 1);
    });
  });

  describe('from 40 % of its life on', () => {
    it('still hands the old one out and signs its successor once, in the worker', () => {
      const signing = createFakeSigning();
      const cache = createAssertionCache(signing, 100);
      const who = subject();
      const first = signedNow(cache, who);
      signing.clock = START + 24_000;
      assert.equal(cache.peek(who, 'commerce'), first);
      assert.equal(cache.peek(who, 'commerce'), first);
      assert.equal(signing.offThread, 1, 'one renewal, however many requests meanwhile');
      signing.release();
      const second = cache.peek(who, 'commerce');
      assert.match(String(second), /^worker-/);
      assert.notEqual(second, first);
      // The successor's life counts from its own iat.
      signing.clock = START + 24_000 + 23_000;
      assert.equal(cache.peek(who, 'commerce'), second);
      assert.equal(signing.offThread, 1);
    });
  });

  describe('with less than half its life left', () => {
    it('never hands it out: requests wait for the renewal under way', () => {
      const signing = createFakeSigning();
      const cache = createAssertionCache(signing, 100);
      const who = subject();
      const first = signedNow(cache, who);
      signing.clock = START + 30_000;
      assert.equal(cache.peek(who, 'commerce'), null);
      const answers: string[] = [];
      for (let i = 0; i < 5; i++)
        cache.sign(who, 'commerce', true, (_error, assertion) => answers.push(assertion));
      assert.equal(signing.offThread, 1, 'one signature for five waiting requests');
      assert.deepEqual(answers, []);
      signing.release();
      assert.equal(answers.length, 5);
      assert.equal(new Set(answers).size, 1);
      assert.notEqual(answers[0], first);
      assert.equal(cache.peek(who, 'commerce'), answers[0]);
    });
  });

  describe('when the key version changes (revoke, closed secret, scope change)', () => {
    it('signs a new assertion at once and never hands the old one to the new version', () => {
      const signing = createFakeSigning();
      const cache = createAssertionCache(signing, 100);
      const before = signedNow(cache, subject({ version: 1 }));
      signing.clock = START + 1_000;
      assert.equal(cache.peek(subject({ version: 2, scopes: ['order:rw'] }), 'commerce'), null);
      const after = signedNow(cache, subject({ version: 2, scopes: ['order:rw'] }));
      assert.notEqual(after, before);
      assert.match(String(after), /order:rw/);
      assert.equal(cache.peek(subject({ version: 2, scopes: ['order:rw'] }), 'commerce'), after);
      assert.equal(signing.inline, 2);
    });
  });

  describe('for tuples that differ in secret, audience or scopes only', () => {
    it('keeps one assertion for each', () => {
      const signing = createFakeSigning();
      const cache = createAssertionCache(signing, 100);
      const a = signedNow(cache, subject());
      const b = signedNow(cache, subject({ secretId: 'sec_b' }));
      const c = signedNow(cache, subject(), 'billing');
      const d = signedNow(cache, subject({ scopes: ['order:rw'] }));
      assert.equal(new Set([a, b, c, d]).size, 4);
      assert.equal(cache.peek(subject({ secretId: 'sec_b' }), 'commerce'), b);
      assert.equal(cache.peek(subject(), 'billing'), c);
    });
  });

  describe('with many requests of one new caller at once (busy)', () => {
    it('signs once in the worker and answers every request with that assertion', () => {
      const signing = createFakeSigning();
      const cache = createAssertionCache(signing, 100);
      const answers: string[] = [];
      for (let i = 0; i < 32; i++) {
        cache.sign(subject(), 'commerce', true, (error, assertion) => {
          assert.equal(error, null);
          answers.push(assertion);
        });
      }
      assert.equal(signing.offThread, 1);
      assert.equal(signing.inline, 0);
      signing.release();
      assert.equal(answers.length, 32);
      assert.equal(new Set(answers).size, 1);
    });
  });

  describe('when a signature fails', () => {
    it('fails every request waiting on it, and the next request signs again', () => {
      const signing = createFakeSigning();
      const cache = createAssertionCache(signing, 100);
      const errors: Array<Error | null> = [];
      for (let i = 0; i < 3; i++) cache.sign(subject(), 'commerce', true, (error) => errors.push(error));
      signing.release(new Error('worker died'));
      assert.deepEqual(
        errors.map((error) => error?.message),
        ['worker died', 'worker died', 'worker died'],
      );
      assert.equal(cache.peek(subject(), 'commerce'), null);
      signing.failNext = new Error('bad key');
      assert.equal((signedNow(cache, subject()) as Error).message, 'bad key');
      assert.match(String(signedNow(cache, subject())), /^inline-/);
    });

    it('keeps the current assertion when a renewal ahead fails, and tries again on the next request', () => {
      const signing = createFakeSigning();
      const cache = createAssertionCache(signing, 100);
      const first = signedNow(cache, subject());
      signing.clock = START + 25_000;
      assert.equal(cache.peek(subject(), 'commerce'), first);
      signing.release(new Error('worker died'));
      assert.equal(cache.peek(subject(), 'commerce'), first);
      assert.equal(signing.offThread, 2);
    });
  });

  describe('with more callers than it holds', () => {
    it('forgets the one signed longest ago (a caller still calling is signed again every 40 % of a life)', () => {
      const signing = createFakeSigning();
      const cache = createAssertionCache(signing, 2);
      signedNow(cache, subject({ keyId: 'key_a' }));
      const b = signedNow(cache, subject({ keyId: 'key_b' }));
      const c = signedNow(cache, subject({ keyId: 'key_c' }));
      assert.equal(cache.size, 2);
      assert.equal(cache.peek(subject({ keyId: 'key_a' }), 'commerce'), null);
      assert.equal(cache.peek(subject({ keyId: 'key_b' }), 'commerce'), b);
      assert.equal(cache.peek(subject({ keyId: 'key_c' }), 'commerce'), c);
    });
  });

  describe("over the gateway's own signer", () => {
    it('signs key-bound claims (no htm, htp or jti) valid for the configured lifetime', async () => {
      const { privateJwk } = await generateIdentityKeyPair();
      let clock = START;
      const signer = createGatewayIdentitySigner({ privateJwk, ttlSeconds: 120, now: () => clock });
      try {
        const cache = createAssertionCache(signer, 100);
        const who = subject({ scopes: ['article:r', 'order:rw'] });
        const assertion = String(signedNow(cache, who));
        assert.deepEqual(decodeProtectedHeader(assertion), {
          alg: 'ES256',
          kid: privateJwk.kid,
          typ: 'keygate-id+jwt',
        });
        assert.deepEqual(decodeJwt(assertion), {
          env: 'live',
          scp: ['article:r', 'order:rw'],
          sid: 'sec_a',
          iss: 'keygate',
          sub: 'key_a',
          aud: 'commerce',
          iat: START / 1000,
          exp: START / 1000 + 120,
        });
        clock = START + 47_000;
        assert.equal(cache.peek(who, 'commerce'), assertion, 'a 120 s assertion is renewed from 48 s on');
      } finally {
        await signer.close();
      }
    });
  });
});
