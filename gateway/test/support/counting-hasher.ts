import { createHash, timingSafeEqual } from 'node:crypto';
import type { SecretHasher } from '../../src/keys/hasher.ts';

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
