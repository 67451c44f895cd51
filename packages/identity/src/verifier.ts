import {
  createLocalJWKSet,
  createRemoteJWKSet,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import {
  IDENTITY_BINDINGS,
  IDENTITY_ISSUER,
  type Identity,
  type IdentityBinding,
  type IdentityClaims,
} from './claims.ts';
import { isScope } from './scopes.ts';
import { IDENTITY_ALGORITHMS } from './signer.ts';
import { createVerifiedAssertions } from './verified-assertions.ts';

export type IdentityErrorCode =
  | 'IDENTITY_MISSING'
  | 'IDENTITY_INVALID'
  | 'IDENTITY_EXPIRED'
  | 'IDENTITY_WRONG_AUDIENCE'
  | 'IDENTITY_REQUEST_MISMATCH'
  | 'IDENTITY_REPLAYED';

/** Why an assertion was refused; every code maps to 401. */
export class IdentityError extends Error {
  readonly code: IdentityErrorCode;
  constructor(code: IdentityErrorCode, message: string) {
    super(message);
    this.name = 'IdentityError';
    this.code = code;
  }
}

export interface IdentityVerifierOptions {
  /** The gateway's public keys: a JWKS document, or the URL it is published at. */
  keys: JSONWebKeySet | URL;
  /** The audience this service answers to; assertions for other audiences are refused. */
  audience: string;
  issuer?: string;
  /** Seconds of clock skew tolerated on `iat`/`exp`; default 5. */
  clockToleranceSeconds?: number;
  now?: () => number;
  /**
   * How many unexpired assertion ids (`jti`) of request-bound assertions to remember so the same
   * assertion is accepted once; default 100,000. When full, the oldest ids are forgotten first.
   * 0 turns replay checks off.
   */
  maxTrackedAssertions?: number;
  /**
   * The bindings accepted (default both, so a service works whichever mode the gateway runs): pin
   * `['request']` to refuse key-bound assertions, which a captured copy could replay until they expire.
   */
  bindings?: readonly IdentityBinding[];
  /**
   * How many verified key-bound assertions to keep (least recently used dropped first), each until
   * its `exp`, so a key's assertion is verified once per lifetime, not once per request; default
   * 10,000. 0 verifies every one.
   */
  maxCachedAssertions?: number;
}

export interface IdentityVerifier {
  /**
   * Verifies an assertion for the request it arrived on and returns the identity it carries (with
   * `method`, `path` and `requestId` when it is bound to the request).
   */
  verify(token: string | undefined, request: { method: string; path: string }): Promise<Identity>;
}

/**
 * Builds a verifier that checks signature, issuer, audience and expiry, and for a request-bound
 * assertion method, path and that its id was not seen before. A key-bound assertion names no request:
 * once verified it is kept until its `exp`, and the same token is then accepted without a signature check.
 */
export function createIdentityVerifier(options: IdentityVerifierOptions): IdentityVerifier {
  const getKey: JWTVerifyGetKey =
    options.keys instanceof URL
      ? createRemoteJWKSet(options.keys, { cooldownDuration: 5_000, cacheMaxAge: 10 * 60_000 })
      : createLocalJWKSet(options.keys);
  const issuer = options.issuer ?? IDENTITY_ISSUER;
  const tolerance = options.clockToleranceSeconds ?? 5;
  const now = options.now ?? Date.now;
  const seen = createSeenAssertions(options.maxTrackedAssertions ?? 100_000);
  const accepted = new Set(options.bindings ?? IDENTITY_BINDINGS);
  const verified = createVerifiedAssertions(options.maxCachedAssertions ?? 10_000);

  return {
    async verify(token, request) {
      if (!token)
        throw new IdentityError(
          'IDENTITY_MISSING',
          'No identity assertion: call this service through the gateway.',
        );
      const known = verified.get(token, now());
      if (known) return { ...known, scopes: [...known.scopes] };
      let claims: IdentityClaims;
      try {
        const result = await jwtVerify<IdentityClaims>(token, getKey, {
          algorithms: [...IDENTITY_ALGORITHMS],
          issuer,
          audience: options.audience,
          clockTolerance: tolerance,
          currentDate: new Date(now()),
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        claims = result.payload;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) {
          throw new IdentityError('IDENTITY_EXPIRED', 'The identity assertion has expired.');
        }
        if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'aud') {
          throw new IdentityError(
            'IDENTITY_WRONG_AUDIENCE',
            'The identity assertion was made for another service.',
          );
        }
        throw new IdentityError('IDENTITY_INVALID', 'The identity assertion is not valid.');
      }
      const binding = bindingOfClaims(claims);
      if (
        binding === null ||
        (claims.env !== 'live' && claims.env !== 'test') ||
        !Array.isArray(claims.scp) ||
        !claims.scp.every((s) => typeof s === 'string' && isScope(s)) ||
        typeof claims.sid !== 'string'
      ) {
        throw new IdentityError('IDENTITY_INVALID', 'The identity assertion lacks required claims.');
      }
      if (!accepted.has(binding)) {
        throw new IdentityError(
          'IDENTITY_REQUEST_MISMATCH',
          binding === 'key'
            ? 'This service accepts only assertions bound to their request.'
            : 'This service accepts only key-bound assertions.',
        );
      }
      const identity: Identity = {
        keyId: claims.sub,
        environment: claims.env,
        scopes: claims.scp,
        secretId: claims.sid,
      };
      if (binding === 'key') {
        verified.set(token, identity, (claims.exp + tolerance) * 1000, now());
        return { ...identity, scopes: [...identity.scopes] };
      }
      if (claims.htm !== request.method.toUpperCase() || claims.htp !== request.path) {
        throw new IdentityError(
          'IDENTITY_REQUEST_MISMATCH',
          'The identity assertion was made for another request.',
        );
      }
      if (!seen.add(claims.jti!, (claims.exp + tolerance) * 1000, now())) {
        throw new IdentityError('IDENTITY_REPLAYED', 'This identity assertion was already used.');
      }
      return { ...identity, method: claims.htm, path: claims.htp, requestId: claims.jti };
    },
  };
}

/** `request` when the claims name a request (`htm`, `htp`, `jti`, all strings), `key` when none, else null. */
function bindingOfClaims(claims: IdentityClaims): IdentityBinding | null {
  const named = [claims.htm, claims.htp, claims.jti];
  if (named.every((claim) => claim === undefined)) return 'key';
  return named.every((claim) => typeof claim === 'string') ? 'request' : null;
}

/**
 * Remembers assertion ids until they expire. Assertions arrive in roughly expiry order, so the
 * Map's insertion order lets expired ids be dropped from the front.
 */
function createSeenAssertions(max: number) {
  const expiries = new Map<string, number>();
  return {
    /** False when `jti` is still remembered (a replay); otherwise remembers it until `expiresAtMs`. */
    add(jti: string, expiresAtMs: number, nowMs: number): boolean {
      if (max <= 0) return true;
      const known = expiries.get(jti);
      if (known !== undefined && known > nowMs) return false;
      for (const [id, expiry] of expiries) {
        if (expiry > nowMs && expiries.size < max) break;
        expiries.delete(id);
      }
      expiries.set(jti, expiresAtMs);
      return true;
    },
  };
}
