import { hasScope } from '@keygate/identity';
import type { NextFunction, Request, Response } from 'express';
import { GatewayError } from '../errors.ts';
import { expiryReminder } from '../keys/lifecycle.ts';
import type { ApiKey } from '../keys/model.ts';
import { newId, type ParsedToken, parseToken } from '../keys/token.ts';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.ts';
import { RATE_LIMIT_WINDOW_SECONDS } from '../rate-limit/key-rate-limiter.ts';
import { SUPPORTED_VERSIONS, setDeprecationHeaders, unsupportedVersionOf } from '../routes/deprecation.ts';
import { isSafePath, type RouteMatch, type RouteMatcher } from '../routes/route-matcher.ts';
import { formatAddress, type IpRules, resolveClientAddress } from './ip-rules.ts';
import type { KeyVerifier, VerifiedKey } from './key-verifier.ts';
import type { Principal } from './principal.ts';

/** Response header announcing a key's coming expiry: `Keygate-Key-Expires: 2026-03-31; days-left=5`. */
export const EXPIRY_HEADER = 'Keygate-Key-Expires';

type Step = (req: Request, res: Response, next: NextFunction) => void | Promise<void>;

/** The raw query-free path the client sent (Express may have rewritten `req.url` below a mount). */
export function rawPathOf(req: Request): string {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

const tokens = new WeakMap<Request, { token: string; parsed: ParsedToken }>();
const verifiedKeys = new WeakMap<Request, VerifiedKey>();

/** (a) A fresh `req_…` id, echoed as X-Request-Id; a client-sent id is kept only as a log field. */
export function assignRequestId(req: Request, res: Response, next: NextFunction): void {
  const requestId = newId('req');
  res.locals.requestId = requestId;
  res.locals.startedAt = process.hrtime.bigint();
  const sent = req.headers['x-request-id'];
  if (typeof sent === 'string') res.locals.clientRequestId = sent.slice(0, 128);
  res.setHeader('X-Request-Id', requestId);
  next();
}

/** True when every `%` escape of the path is valid and decodes to UTF-8. */
function isWellEncoded(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** 404 UNKNOWN_API_VERSION naming the versions served. */
export function unknownVersionError(version: string): GatewayError {
  return new GatewayError(
    'UNKNOWN_API_VERSION',
    `There is no API version ${version}; supported: ${SUPPORTED_VERSIONS.join(', ')}.`,
    { supportedVersions: SUPPORTED_VERSIONS },
  );
}

/**
 * Refuses paths that could confuse matching (dot segments, encoded `/`) and anything outside `/v2/`
 * (404; 404 UNKNOWN_API_VERSION for another version such as `/v1/…`), and paths with malformed
 * percent-encoding (400 MALFORMED_REQUEST), before any key work.
 */
export function checkPath(req: Request, _res: Response, next: NextFunction): void {
  const path = rawPathOf(req);
  if (!isSafePath(path) || !path.startsWith('/v2/')) {
    const version = isSafePath(path) ? unsupportedVersionOf(path) : null;
    if (version) throw unknownVersionError(version);
    throw new GatewayError('ROUTE_NOT_FOUND', 'No such route; the API lives under /v2/.');
  }
  if (!isWellEncoded(path)) {
    throw new GatewayError('MALFORMED_REQUEST', 'The request path has malformed percent-encoding.');
  }
  next();
}

/**
 * Announces a deprecated route's `Deprecation`, `Sunset` and `Link` headers on every answer,
 * refusals included (an integrator debugging a 401 learns of the sunset too).
 */
export function createAnnounceDeprecation(routes: RouteMatcher): Step {
  return function announceDeprecation(req, res, next) {
    const deprecation = routes.match(req.method, rawPathOf(req))?.deprecation;
    if (deprecation) setDeprecationHeaders(res, deprecation);
    next();
  };
}

/** (d, first half) The client address: the socket peer, or X-Forwarded-For through trusted proxies only. */
export function createResolveClientIp(trustedProxies: IpRules): Step {
  return function resolveClientIp(req, res, next) {
    const header = req.headers['x-forwarded-for'];
    const forwarded = Array.isArray(header) ? header.join(',') : header;
    const address = resolveClientAddress(req.socket.remoteAddress, forwarded, trustedProxies);
    res.locals.clientIp = address ? formatAddress(address) : (req.socket.remoteAddress ?? 'unknown');
    res.locals.clientAddress = address;
    next();
  };
}

/** (b) `Authorization: Bearer <token>` with a well-formed token; no I/O at all. */
export function parseBearer(req: Request, _res: Response, next: NextFunction): void {
  const header = req.headers.authorization;
  if (!header?.trim()) {
    throw new GatewayError('MISSING_KEY', 'Send your API key as `Authorization: Bearer <key>`.');
  }
  const match = /^Bearer +(\S+) *$/i.exec(header);
  const parsed = match ? parseToken(match[1]!) : null;
  if (!match || !parsed) {
    throw new GatewayError('MALFORMED_KEY', 'This is not a keygate API key; check that it was copied whole.');
  }
  tokens.set(req, { token: match[1]!, parsed });
  next();
}

/** (c) Verifies the token (cache, else argon2) and refuses a revoked, closed or expired key; sets the principal. */
export function createVerifyKey(verifier: KeyVerifier): Step {
  return async function verifyKey(req, res, next) {
    const bearer = tokens.get(req);
    if (!bearer) throw new Error('verifyKey ran before parseBearer');
    tokens.delete(req);
    const verified = await verifier.verify(bearer.token, bearer.parsed);
    verifiedKeys.set(req, verified);
    const principal: Principal = {
      key: verified.key,
      secret: verified.secret,
      clientIp: res.locals.clientIp as string,
      requestId: res.locals.requestId as string,
    };
    res.locals.principal = principal;
    next();
  };
}

/** Throws 403 IP_NOT_ALLOWED unless the key's allowlist (if any) admits the request's client address. */
function assertIpAllowed(verified: VerifiedKey, res: Response): void {
  const address = res.locals.clientAddress as Parameters<IpRules['matches']>[0] | null;
  if (verified.allowlist.size > 0 && (!address || !verified.allowlist.matches(address))) {
    throw new GatewayError(
      'IP_NOT_ALLOWED',
      `This key may not be used from ${res.locals.clientIp as string}.`,
    );
  }
}

/** Throws 403 unless the key holds the route's scope and the route serves the key's environment. */
function assertRouteAllowed(key: ApiKey, route: RouteMatch): void {
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

/** (d, second half) The key's IP allowlist, compiled once per key snapshot. */
export function checkIpAllowlist(req: Request, res: Response, next: NextFunction): void {
  const verified = verifiedKeys.get(req);
  if (!verified) throw new Error('checkIpAllowlist ran before verifyKey');
  assertIpAllowed(verified, res);
  next();
}

/**
 * (e) Resolves the route (management or proxied), checks that the key holds its scope and that the
 * route's upstream serves the key's environment (403 ENVIRONMENT_MISMATCH otherwise).
 */
export function createAuthorizeRoute(routes: RouteMatcher): Step {
  return function authorizeRoute(req, res, next) {
    const route = routes.match(req.method, rawPathOf(req));
    if (!route) throw new GatewayError('ROUTE_NOT_FOUND', `No route for ${req.method} ${rawPathOf(req)}.`);
    res.locals.route = route;
    assertRouteAllowed((res.locals.principal as Principal).key, route);
    next();
  };
}

/**
 * (f) Per-key rate limit with IETF draft-10 `RateLimit-Policy` / `RateLimit` headers on every
 * authenticated response. With a shared store, the key's version is read in the same tick as the
 * limiter's command (one Redis round trip): if the key changed on another instance since this one
 * cached it, its fresh state, allowlist and scope are checked again before anything is proxied.
 */
export function createConsumeRateLimit(limiter: KeyRateLimiter, verifier: KeyVerifier): Step {
  return async function consumeRateLimit(req, res, next) {
    const verified = verifiedKeys.get(req);
    if (!verified) throw new Error('consumeRateLimit ran before verifyKey');
    const { key } = verified;
    const [decision, current] = await Promise.all([
      limiter.consume(key.id, key.rateLimit.perMinute),
      verifier.confirm(verified),
    ]);
    if (current !== verified) {
      assertIpAllowed(current, res);
      assertRouteAllowed(current.key, routeOf(res) as RouteMatch);
      verifiedKeys.set(req, current);
      const principal = res.locals.principal as Principal;
      res.locals.principal = { ...principal, key: current.key, secret: current.secret };
    }
    res.setHeader('RateLimit-Policy', `"per-key";q=${decision.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`);
    res.setHeader('RateLimit', `"per-key";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.resetSeconds));
      throw new GatewayError(
        'RATE_LIMITED',
        `This key allows ${decision.limit} calls per minute; retry in ${decision.resetSeconds} s.`,
        { retryAfter: decision.resetSeconds },
      );
    }
    next();
  };
}

/**
 * (g) While the key's expiry is within the largest reminder lead time, every response carries
 * `Keygate-Key-Expires: <last valid day, YYYY-MM-DD>; days-left=<days left, rounded up: 1 on the last day>`.
 */
export function createAddExpiryNotice(leadDays: number, clock: () => number): Step {
  return function addExpiryNotice(_req, res, next) {
    const { key } = res.locals.principal as Principal;
    const reminder = expiryReminder(key, clock(), leadDays);
    if (reminder) res.setHeader(EXPIRY_HEADER, `${reminder.expiresAt}; days-left=${reminder.daysLeft}`);
    next();
  };
}

/** The route a request resolved to, once `authorizeRoute` ran. */
export function routeOf(res: Response): RouteMatch | undefined {
  return res.locals.route as RouteMatch | undefined;
}
