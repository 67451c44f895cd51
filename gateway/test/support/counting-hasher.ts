import { createHash, timingSafeEqual } from 'node:crypto';
import type { SecretHasher } from '../../src/keys/hasher.ts';
import type { SecretTagger } from '../../src/keys/secret-tag.ts';

/** A counting hasher that also tags secrets, as the production hasher does with its tag key. */
export function createTaggingHasher(tagger: SecretTagger): CountingHasher {
  const hasher = createCountingHasher();
  hasher.tag = tagger.tagOf;
  hasher.checkTag = tagger.check;
  return hasher;
}

/** A hasher that counts verifications; `inner` defaults to a fast SHA-256 stand-in for argon2. */
export interface CountingHasher extends SecretHasher {
  verifications: number;
  hashes: number;
}

const fakeHash = (secret: string) => `fake$${createHash('sha256').update(secret).digest('hex')}`;

/** Verification yields to the event loop first, as argon2 does, so concurrent requests really overlap. */
export function createCountingHasher(inner?: SecretHasher): CountingHasher {
  const hasher: CountingHasher = {
    verifications: 0,
    hashes: 0,
    async hash(secret) {
      hasher.hashes++;
      return inner ? inner.hash(secret) : fakeHash(secret);
    },
    async verify(hash, secret) {
      hasher.verifications++;
      if (inner) return inner.verify(hash, secret);
      await new Promise((resolve) => setImmediate(resolve));
      const expected = Buffer.from(hash);
      const actual = Buffer.from(fakeHash(secret));
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
  };
  return hasher;
}

/** A counting hasher whose verifications wait until `release()`; `waiting` says how many are held. */
export interface HeldHasher extends CountingHasher {
  readonly waiting: number;
  /** Lets every held verification finish. */
  release(): void;
}

/** Verifications are counted when they start, then held until released. */
export function createHeldHasher(): HeldHasher {
  const fast = createCountingHasher();
  const gates: Array<() => void> = [];
  const held: HeldHasher = {
    verifications: 0,
    get hashes() {
      return fast.hashes;
    },
    get waiting() {
      return gates.length;
    },
    release() {
      for (const open of gates.splice(0)) open();
    },
    hash: (secret) => fast.hash(secret),
    async verify(hash, secret) {
      held.verifications++;
      await new Promise<void>((resolve) => gates.push(resolve));
      return fast.verify(hash, secret);
    },
  };
  return held;
}
