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

/** The JWS algorithms of identity assertions: ES256 (ECDSA over P-256) or EdDSA (Ed25519). */
export type IdentityAlgorithm = 'ES256' | 'EdDSA';

/** Every algorithm a verifier accepts; the key a `kid` names decides which one applies. */
export const IDENTITY_ALGORITHMS: readonly IdentityAlgorithm[] = ['ES256', 'EdDSA'];

/**
 * The algorithm of new identity keys. ES256, as Pomerium and Google IAP use: node:crypto signs and
 * verifies it faster than Ed25519.
 */
export const DEFAULT_IDENTITY_ALGORITHM: IdentityAlgorithm = 'ES256';

/** The algorithm an identity JWK (private or public) signs with; null if it is neither P-256 nor Ed25519. */
export function identityAlgorithmOf(jwk: JWK): IdentityAlgorithm | null {
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  return null;
}

/** A private signing key in JWK form with its `kid`, as kept under the data dir. */
export interface IdentityKeyPair {
  privateJwk: JWK;
  publicJwk: JWK;
}

/** Generates a key pair (ES256 unless told); the `kid` is the RFC 7638 thumbprint of the public key. */
export async function generateIdentityKeyPair(
  algorithm: IdentityAlgorithm = DEFAULT_IDENTITY_ALGORITHM,
): Promise<IdentityKeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(algorithm, {
    extractable: true,
    ...(algorithm === 'EdDSA' ? { crv: 'Ed25519' } : {}),
  });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    privateJwk: { ...privateJwk, kid, alg: algorithm, use: 'sig' },
    publicJwk: { ...publicJwk, kid, alg: algorithm, use: 'sig' },
  };
}

/** Derives the public JWK (no `d`) from a private one. */
export function publicJwkOf(privateJwk: JWK): JWK {
  const { d: _d, ...rest } = privateJwk;
  return rest;
}

export interface IdentitySigner {
  /**
   * Signs an assertion of `identity` for `audience`: bound to its request when `identity` names one
   * (method, path, request id), else to its key (no `htm`, `htp` or `jti`).
   */
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
  const algorithm = identityAlgorithmOf(privateJwk);
  if (!algorithm) throw new Error('identity signing key must be a P-256 (ES256) or Ed25519 (EdDSA) key');
  const key = (await importJWK(privateJwk, algorithm)) as CryptoKey;
  const ttl = options.ttlSeconds ?? DEFAULT_ASSERTION_TTL_SECONDS;
  const issuer = options.issuer ?? IDENTITY_ISSUER;
  const now = options.now ?? Date.now;
  const header = { alg: algorithm, kid: privateJwk.kid, typ: 'keygate-id+jwt' };
  const jwks = { keys: [publicJwkOf(privateJwk), ...(options.additionalPublicKeys ?? [])] };
  return {
    jwks,
    async sign(identity, audience) {
      const iat = Math.floor(now() / 1000);
      const jwt = new SignJWT({
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
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl);
      // Undefined claims are left out of the payload: a key-bound assertion names no request.
      if (identity.requestId !== undefined) jwt.setJti(identity.requestId);
      return jwt.sign(key);
    },
  };
}
