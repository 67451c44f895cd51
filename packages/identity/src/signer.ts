import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
} from 'jose';
import { DEFAULT_ASSERTION_TTL_SECONDS, IDENTITY_ISSUER, type Identity } from './claims.ts';

export const IDENTITY_ALGORITHM = 'EdDSA';

/** A private signing key in JWK form with its `kid`, as kept under the data dir. */
export interface IdentityKeyPair {
  privateJwk: JWK;
  publicJwk: JWK;
}

/** Generates an Ed25519 key pair; the `kid` is the RFC 7638 thumbprint of the public key. */
export async function generateIdentityKeyPair(): Promise<IdentityKeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(IDENTITY_ALGORITHM, {
    extractable: true,
    crv: 'Ed25519',
  });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    privateJwk: { ...privateJwk, kid, alg: IDENTITY_ALGORITHM, use: 'sig' },
    publicJwk: { ...publicJwk, kid, alg: IDENTITY_ALGORITHM, use: 'sig' },
  };
}

/** Derives the public JWK (no `d`) from a private one. */
export function publicJwkOf(privateJwk: JWK): JWK {
  const { d: _d, ...rest } = privateJwk;
  return rest;
}

export interface IdentitySigner {
  /** Signs an assertion of `identity` for `audience`. */
  sign(identity: Identity, audience: string): Promise<string>;
  /** The JWKS document to publish at `/.well-known/jwks.json`. */
  readonly jwks: { keys: JWK[] };
}

/** Builds a signer from a private JWK (with `kid`); extra public keys can be published for rollover. */
export async function createIdentitySigner(options: {
  privateJwk: JWK;
  ttlSeconds?: number;
  issuer?: string;
  additionalPublicKeys?: JWK[];
  now?: () => number;
}): Promise<IdentitySigner> {
  const { privateJwk } = options;
  if (!privateJwk.kid) throw new Error('identity signing key needs a kid');
  const key = (await importJWK(privateJwk, IDENTITY_ALGORITHM)) as CryptoKey;
  const ttl = options.ttlSeconds ?? DEFAULT_ASSERTION_TTL_SECONDS;
  const issuer = options.issuer ?? IDENTITY_ISSUER;
  const now = options.now ?? Date.now;
  const header = { alg: IDENTITY_ALGORITHM, kid: privateJwk.kid, typ: 'keygate-id+jwt' };
  const jwks = { keys: [publicJwkOf(privateJwk), ...(options.additionalPublicKeys ?? [])] };
  return {
    jwks,
    async sign(identity, audience) {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({
        env: identity.environment,
        scp: identity.scopes,
        sid: identity.secretId,
        htm: identity.method,
        htp: identity.path,
      })
        .setProtectedHeader(header)
        .setIssuer(issuer)
        .setSubject(identity.keyId)
        .setAudience(audience)
        .setJti(identity.requestId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl)
        .sign(key);
    },
  };
}
