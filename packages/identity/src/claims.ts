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

/** What the gateway asserts about the caller of one request. */
export interface Identity {
  /** The API key id (`key_…`). */
  keyId: string;
  environment: Environment;
  scopes: string[];
  /** The secret the caller used (`sec_…`). */
  secretId: string;
  /** HTTP method of the request this assertion was made for. */
  method: string;
  /** Request target (path and query) this assertion was made for. */
  path: string;
  /** The gateway's request id. */
  requestId: string;
}

/** The JWT claims set; short names keep the header small. */
export interface IdentityClaims {
  iss: string;
  sub: string;
  aud: string;
  env: Environment;
  scp: string[];
  sid: string;
  htm: string;
  htp: string;
  jti: string;
  iat: number;
  exp: number;
}
