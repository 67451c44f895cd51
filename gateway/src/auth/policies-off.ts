import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { GatewayError } from '../errors.ts';
import type { ApiKey, SecretRecord } from '../keys/model.ts';
import { setDeprecationHeaders } from '../routes/deprecation.ts';
import type { RouteMatch, RouteMatcher } from '../routes/route-matcher.ts';
import type { Principal } from './principal.ts';
import { assignRequestId, checkPath, rawPathOf } from './steps.ts';

/** The caller every request is proxied as while policies are off (KEYGATE_POLICIES=off). */
export const POLICIES_OFF_KEY_ID = 'key_policies_off';

const EPOCH = new Date(0).toISOString();

/** The fixed test-environment key asserted upstream for a route: it holds exactly the route's scope. */
function benchKeyFor(route: RouteMatch & { kind: 'proxy' }): { key: ApiKey; secret: SecretRecord } {
  const key: ApiKey = {
    id: POLICIES_OFF_KEY_ID,
    name: 'policies off (benchmarking mode)',
    environment: 'test',
    scopes: [route.scope],
    expiresAt: null,
    ipAllowlist: [],
    rateLimit: { perMinute: Number.MAX_SAFE_INTEGER },
    prefix: 'kg_test_policiesoff',
    status: 'active',
    revokedAt: null,
    remindersSent: [],
    createdAt: EPOCH,
    updatedAt: EPOCH,
    lastCallAt: null,
    version: 1,
  };
  const secret: SecretRecord = {
    id: 'sec_policies_off',
    keyId: key.id,
    lookup: 'policiesoff',
    prefix: key.prefix,
    hash: '',
    createdAt: EPOCH,
    closesAt: null,
    closedAt: null,
    closedReason: null,
    callCount: 0,
    lastCallAt: null,
  };
  return { key: Object.freeze(key), secret: Object.freeze(secret) };
}

/**
 * The pipeline of the benchmarking mode: request id, path checks and routing as usual, then the
 * request goes to the proxy as a fixed test-environment caller holding the route's scope. No key
 * is read, no rate limit counted, no usage recorded; management routes and unknown paths answer 404.
 */
export function createPoliciesOffPipeline(routes: RouteMatcher): RequestHandler[] {
  const callers = new Map<string, { key: ApiKey; secret: SecretRecord }>();
  function routeAsBenchCaller(req: Request, res: Response, next: NextFunction): void {
    const route = routes.match(req.method, rawPathOf(req));
    if (route?.kind !== 'proxy') {
      throw new GatewayError('ROUTE_NOT_FOUND', `No route for ${req.method} ${rawPathOf(req)}.`);
    }
    let caller = callers.get(route.rule);
    if (!caller) {
      caller = benchKeyFor(route);
      callers.set(route.rule, caller);
    }
    const principal: Principal = {
      ...caller,
      clientIp: req.socket.remoteAddress ?? 'unknown',
      requestId: res.locals.requestId as string,
    };
    if (route.deprecation) setDeprecationHeaders(res, route.deprecation);
    res.locals.route = route;
    res.locals.principal = principal;
    next();
  }
  return [assignRequestId, checkPath, routeAsBenchCaller];
}
