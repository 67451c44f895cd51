import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generateIdentityKeyPair, identityAlgorithmOf, publicJwkOf } from '@keygate/identity';
import { calculateJwkThumbprint, type JWK } from 'jose';

/** Where the signing key comes from: an explicit private JWK wins over the key file. */
export interface IdentityKeySource {
  privateJwk: JWK | null;
  keyFile: string;
}

/** A private P-256 (ES256) or Ed25519 (EdDSA) JWK; key files written by earlier versions hold Ed25519. */
function isPrivateIdentityJwk(jwk: unknown): jwk is JWK {
  const value = jwk as JWK | null;
  if (typeof value !== 'object' || value === null) return false;
  const algorithm = identityAlgorithmOf(value);
  return (
    algorithm !== null &&
    typeof value.d === 'string' &&
    typeof value.x === 'string' &&
    (algorithm !== 'ES256' || typeof value.y === 'string')
  );
}

/** Adds the `kid` (RFC 7638 thumbprint of the public part), the key's `alg` and `use` when missing. */
async function completeJwk(jwk: JWK): Promise<JWK> {
  const kid = jwk.kid ?? (await calculateJwkThumbprint(publicJwkOf(jwk)));
  return { ...jwk, kid, alg: identityAlgorithmOf(jwk) ?? undefined, use: 'sig' };
}

async function readKeyFile(file: string): Promise<JWK | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const jwk: unknown = JSON.parse(text);
  if (!isPrivateIdentityJwk(jwk)) {
    throw new Error(`${file} does not hold a P-256 (ES256) or Ed25519 (EdDSA) private JWK`);
  }
  return jwk;
}

/**
 * Creates the key file (mode 0600) without ever exposing a half-written file or overwriting one:
 * the key is written to a temporary file and hard-linked into place, which fails if another
 * process got there first, in which case its key is used.
 */
async function createKeyFile(file: string): Promise<JWK> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const { privateJwk } = await generateIdentityKeyPair();
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${JSON.stringify(privateJwk, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temp, file);
    return privateJwk;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const existing = await readKeyFile(file);
    if (!existing) throw error;
    return existing;
  } finally {
    await unlink(temp);
  }
}

/** The gateway's private signing JWK (with `kid`): from config, else the key file, generated on first start. */
export async function loadIdentityKey(source: IdentityKeySource): Promise<JWK> {
  if (source.privateJwk) return completeJwk(source.privateJwk);
  const existing = await readKeyFile(source.keyFile);
  return completeJwk(existing ?? (await createKeyFile(source.keyFile)));
}
