import { createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * A keyed fast tag of a secret, stored beside its argon2id hash: `<kid>.<HMAC-SHA256 of the token>`
 * (base64url). It lets the gateway refuse a wrong secret for a known prefix without argon2: the
 * prefix is public, so throttling argon2 per prefix locked the right secret out, and each wrong
 * guess cost an argon2 run that slowed every other key. The tokens carry about 130 random bits, so
 * a fast MAC is as hard to invert as argon2 is; argon2 still runs once per secret per instance when
 * the tag matches. `kid` names the tag key: a tag made with another key (an instance or CLI not
 * given the shared key) is not trusted either way, and the secret is verified with argon2 as before.
 */
export interface SecretTagger {
  /** The tag to store for a token. */
  tagOf(token: string): string;
  /** `match` / `mismatch` for a tag made with this key (compared in constant time); `unknown` otherwise. */
  check(tag: string | null | undefined, token: string): 'match' | 'mismatch' | 'unknown';
}

/**
 * Why a gateway or the CLI on a shared store (Redis, Cluster, Sentinel) without a tag key is
 * refused: each would make a tag key of its own, and secrets tagged by one would need argon2 on
 * every other, the cold-start 503s the tags exist to prevent.
 */
export const SHARED_TAG_KEY_REQUIRED =
  'KEYGATE_SECRET_TAG_KEY: required with a shared store (REDIS_URL, Cluster or Sentinel), the same ' +
  'for every instance and the CLI; make one with `openssl rand -base64 32` (or set ' +
  'KEYGATE_SECRET_TAG_KEY_FILE to a file holding it)';

/** Bytes of a generated tag key. */
const TAG_KEY_BYTES = 32;

/** A tagger with `key` (at least 32 bytes). */
export function createSecretTagger(key: Buffer): SecretTagger {
  if (key.length < TAG_KEY_BYTES)
    throw new Error(`the secret tag key must have at least ${TAG_KEY_BYTES} bytes`);
  const kid = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  // A KeyObject made once: given the Buffer, createHmac imports the key anew on every call, which
  // cost a wrong secret more than the MAC itself.
  const macKey = createSecretKey(key);
  const macOf = (token: string) => createHmac('sha256', macKey).update(token).digest();
  return {
    tagOf: (token) => `${kid}.${macOf(token).toString('base64url')}`,
    check(tag, token) {
      if (!tag?.startsWith(`${kid}.`)) return 'unknown';
      const stored = Buffer.from(tag.slice(kid.length + 1), 'base64url');
      const actual = macOf(token);
      return stored.length === actual.length && timingSafeEqual(stored, actual) ? 'match' : 'mismatch';
    },
  };
}

/** Parses KEYGATE_SECRET_TAG_KEY (base64url or base64 of at least 32 bytes); null when it is not one. */
export function parseTagKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9_\-+/]+=*$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, trimmed.includes('+') || trimmed.includes('/') ? 'base64' : 'base64url');
  return key.length >= TAG_KEY_BYTES ? key : null;
}

/**
 * The tag key: the configured one, else the key file, created (mode 0600, base64url) on first
 * start like the identity key. Written to a temporary file and hard-linked into place, so two
 * processes starting at once end up with the same key and nobody reads a half-written file.
 */
export async function loadTagKey(source: { key: Buffer | null; keyFile: string }): Promise<Buffer> {
  if (source.key) return source.key;
  const existing = await readTagKeyFile(source.keyFile);
  if (existing) return existing;
  await mkdir(dirname(source.keyFile), { recursive: true, mode: 0o700 });
  const key = randomBytes(TAG_KEY_BYTES);
  const temp = `${source.keyFile}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${key.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temp, source.keyFile);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readTagKeyFile(source.keyFile);
    if (!winner) throw error;
    return winner;
  } finally {
    await unlink(temp).catch(() => {});
  }
}

async function readTagKeyFile(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = parseTagKey(text);
  if (!key) throw new Error(`${file} does not hold a secret tag key (base64url of ${TAG_KEY_BYTES} bytes)`);
  return key;
}
