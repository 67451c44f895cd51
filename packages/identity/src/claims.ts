/** The header carrying the signed identity assertion (a compact JWS). */
export const IDENTITY_HEADER = 'x-keygate-identity';
/** Plain convenience headers; upstreams must trust only the signed assertion. */
export const KEY_ID_HEADER = 'x-keygate-key-id';
export const ENVIRONMENT_HEADER = 'x-keygate-environment';
export const SCOPES_HEADER = 'x-keygate-scopes';
/** Every header a client might send to impersonate the gateway starts with this. */
export const IDENTITY_HEADER_PREFIX = 'x-keygate-';
/** Issuer of every assertion. */
export const IDENTITY_ISSUER = 'keygate';
/** Assertions live this long by default. */
export const DEFAULT_ASSERTION_TTL_SECONDS = 60;

export type Environment = 'live' | 'test';

/**
 * What an assertion is bound to: `key` (one assertion per key, secret, key version, environment and
 * audience, reused by the gateway for its lifetime) or `request` (one per request: method, path and
 * request id, accepted once).
 */
export type IdentityBinding = 'key' | 'request';

/** Both bindings: what a verifier accepts unless told otherwise. */
export const IDENTITY_BINDINGS: readonly IdentityBinding[] = ['key', 'request'];

/**
 * What the gateway asserts about a caller. `method`, `path` and `requestId` are there (all three)
 * only in a request-bound assertion; a signer given none of them signs a key-bound one.
 */
export interface Identity {
  /** The API key id (`key_…`). */
  keyId: string;
  environment: Environment;
  scopes: string[];
  /** The secret the caller used (`sec_…`). */
  secretId: string;
  /** HTTP method of the request this assertion was made for (request binding only). */
  method?: string;
  /** Request target (path and query) this assertion was made for (request binding only). */
  path?: string;
  /** The gateway's request id (request binding only; the request id always travels in `X-Request-Id`). */
  requestId?: string;
}

/** An identity bound to one request: what request binding signs and verifies. */
export type RequestIdentity = Identity & { method: string; path: string; requestId: string };

/** The JWT claims set; short names keep the header small. `htm`, `htp` and `jti` only in request binding. */
export interface IdentityClaims {
  iss: string;
  sub: string;
  aud: string;
  env: Environment;
  scp: string[];
  sid: string;
  htm?: string;
  htp?: string;
  jti?: string;
  iat: number;
  exp: number;
}

/** The binding of an identity: `request` when it names its request, else `key`. */
export function bindingOf(identity: Identity): IdentityBinding {
  return identity.requestId === undefined ? 'key' : 'request';
}
