import argon2 from 'argon2';
import type { SecretTagger } from './secret-tag.ts';

/** Hashes and verifies secrets; a port so tests can count verifications. */
export interface SecretHasher {
  /** argon2id hash of `secret` (PHC string). */
  hash(secret: string): Promise<string>;
  /** True when `secret` matches `hash`; constant-time inside argon2. */
  verify(hash: string, secret: string): Promise<boolean>;
  /** The keyed fast tag stored beside the hash (see secret-tag.ts); absent when the hasher has no tag key. */
  tag?(secret: string): string;
  /** Checks a stored tag against a token: `unknown` when there is none or it was made with another key. */
  checkTag?(tag: string | null | undefined, secret: string): 'match' | 'mismatch' | 'unknown';
}

/** OWASP minimum for argon2id: 19 MiB, 2 iterations, 1 lane (tens of milliseconds a verification). */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** The argon2id hasher used in production; with a tagger, it also tags secrets. */
export function createArgon2Hasher(
  options: Partial<typeof ARGON2_OPTIONS> = {},
  tagger?: SecretTagger,
): SecretHasher {
  const params = { ...ARGON2_OPTIONS, ...options };
  return {
    ...(tagger ? { tag: tagger.tagOf, checkTag: tagger.check } : {}),
    hash: (secret) => argon2.hash(secret, params),
    async verify(hash, secret) {
      try {
        return await argon2.verify(hash, secret);
      } catch {
        return false;
      }
    },
  };
}
