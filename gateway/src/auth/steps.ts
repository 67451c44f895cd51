import { EXPIRY_HEADER } from '@keygate/contracts/gateway';
import { hasScope } from '@keygate/identity';
import type { Response } from 'express';
import { GatewayError } from '../errors.ts';
import { type ParsedToken, parseToken } from '../keys/token.ts';
import { expiryReminder } from '../model/lifecycle.ts';
import type { ApiKey } from '../model/model.ts';
import { SUPPORTED_VERSIONS, unsupportedVersionOf } from '../routes/deprecation.ts';
import { hasOnlyPathCharacters, isSafePath, type RouteMatch } from '../routes/route-matcher.ts';
import type { Address } from './ip-rules.ts';
import type { VerifiedKey } from './key-verifier.ts';

export { EXPIRY_HEADER };

/** The raw query-free path of a request target such as `/v2/x?y=1`. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** 404 UNKNOWN_API_VERSION naming the versions served. */
export function unknownVersionError(version: string): GatewayError {
  return new GatewayError(
    'UNKNOWN_API_VERSION',
    `There is no API version ${version}; supported: ${SUPPORTED_VERSIONS.join(', ')}.`,
    { supportedVersions: SUPPORTED_VERSIONS },
  );
}

/** True when every `%` escape of the path is valid and decodes to UTF-8. */
function isWellEncoded(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses a request target with a character RFC 3986 does not allow in a path, or a `#` anywhere
 * (400 MALFORMED_REQUEST: the upstream would route on less than the gateway matched), paths that
 * could confuse matching (dot segments, encoded `/`) and anything outside `/v2/` (404; 404
 * UNKNOWN_API_VERSION for another version such as `/v1/…`), and paths with malformed
 * percent-encoding (400 MALFORMED_REQUEST), before any key work. `path` is `url` without its query.
 */
export function checkRequestPath(path: string, url: string): void {
  if (!hasOnlyPathCharacters(path) || (url.length > path.length && url.includes('#', path.length))) {
    throw new GatewayError(
      'MALFORMED_REQUEST',
      'The request target holds a character a URL path may not (percent-encode it) or a `#` fragment.',
    );
  }
  if (!isSafePath(path) || !path.startsWith('/v2/')) {
    const version = isSafePath(path) ? unsupportedVersionOf(path) : null;
    if (version) throw unknownVersionError(version);
    throw new GatewayError('ROUTE_NOT_FOUND', 'No such route; the API lives under /v2/.');
  }
  if (!isWellEncoded(path)) {
    throw new GatewayError('MALFORMED_REQUEST', 'The request path has malformed percent-encoding.');
  }
}

/**
 * Throws 400 MALFORMED_REQUEST when the request holds more than one `Authorization` header:
 * node:http keeps only the first, so a live key followed by a test key would pass as the live key
 * while a proxy in front may have looked at the other one. Ambiguous credentials are refused.
 */
export function assertSingleAuthorization(rawHeaders: readonly string[]): void {
  let seen = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 13 || name.toLowerCase() !== 'authorization') continue;
    if (seen) {
      throw new GatewayError('MALFORMED_REQUEST', 'Send exactly one `Authorization` header.');
    }
    seen = true;
  }
}

const BEARER = /^Bearer +(\S+) *$/i;

/** `Authorization: Bearer <token>` with a well-formed token (shape and checksum); no I/O at all. */
export function parseBearer(header: string | undefined): { token: string; parsed: ParsedToken } {
  if (!header?.trim()) {
    throw new GatewayError('MISSING_KEY', 'Send your API key as `Authorization: Bearer <key>`.');
  }
  const match = BEARER.exec(header);
  const parsed = match ? parseToken(match[1]!) : null;
  if (!match || !parsed) {
    throw new GatewayError('MALFORMED_KEY', 'This is not a keygate API key; check that it was copied whole.');
  }
  return { token: match[1]!, parsed };
}

/** Throws 403 IP_NOT_ALLOWED unless the key's allowlist (if any) admits the client address. */
export function assertIpAllowed(verified: VerifiedKey, address: Address | null, clientIp: string): void {
  if (verified.allowlist.size > 0 && (!address || !verified.allowlist.matches(address))) {
    throw new GatewayError('IP_NOT_ALLOWED', `This key may not be used from ${clientIp}.`);
  }
}

/** Throws 403 unless the key holds the route's scope and the route serves the key's environment. */
export function assertRouteAllowed(key: ApiKey, route: RouteMatch): void {
  if (!hasScope(key.scopes, route.scope)) {
    throw new GatewayError('INSUFFICIENT_SCOPE', `This call needs the ${route.scope} scope.`, {
      requiredScope: route.scope,
    });
  }
  if (route.kind === 'proxy' && route.urls[key.environment] === undefined) {
    throw new GatewayError(
      'ENVIRONMENT_MISMATCH',
      `This route is not available to ${key.environment} keys.`,
      { environment: key.environment },
    );
  }
}

/**
 * While the key's expiry is within `leadDays`, the `Keygate-Key-Expires` value:
 * `<last valid day, YYYY-MM-DD>; days-left=<days left, rounded up: 1 on the last day>`; else null.
 */
export function expiryNotice(key: ApiKey, nowMs: number, leadDays: number): string | null {
  if (key.expiresAt === null) return null;
  const reminder = expiryReminder(key, nowMs, leadDays);
  return reminder ? `${reminder.expiresAt}; days-left=${reminder.daysLeft}` : null;
}

/** The route a request resolved to, once the key pipeline authorized it (Express side: management routes). */
export function routeOf(res: Response): RouteMatch | undefined {
  return res.locals.route as RouteMatch | undefined;
}
