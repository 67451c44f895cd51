import { PROBLEM_CONTENT_TYPE } from '@keygate/problem';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Principal } from '../../../src/auth/principal.ts';
import { GatewayError } from '../../../src/errors.ts';
import { parseToken } from '../../../src/keys/token.ts';
import { createKeysRouter } from '../../../src/keys-api/router.ts';
import { MANAGEMENT_ROUTE } from '../../../src/routes/route-matcher.ts';
import type { Harness } from '../../unit/keys/harness.ts';

export const CLIENT_IP = '203.0.113.9';

/**
 * Stands in for the data plane's auth pipeline: the Bearer token's secret is looked up (no hash
 * check, no rules) and becomes `res.locals.principal`, the route the management one; requests
 * without a known token answer 401.
 */
function fakeAuth(h: Harness) {
  return async function fakeAuthenticate(req: Request, res: Response, next: NextFunction) {
    const parsed = parseToken((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    const found = parsed ? await h.store.findByLookup(parsed.lookup) : null;
    if (!found) throw new GatewayError('UNKNOWN_KEY', 'unknown key');
    const principal: Principal = { ...found, clientIp: CLIENT_IP, requestId: 'req_test' };
    res.locals.principal = principal;
    res.locals.route = MANAGEMENT_ROUTE;
    next();
  };
}

/** The minimal equivalent of the data plane's error handler: GatewayError → problem+json, else 500. */
function renderError(error: unknown, _req: Request, res: Response, _next: NextFunction) {
  const problem =
    error instanceof GatewayError
      ? error.toProblem()
      : new GatewayError('INTERNAL', 'internal error').toProblem();
  res.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
}

/** An app with the keys router mounted where the data plane mounts it. */
export function createKeysApiApp(h: Harness): Express {
  const app = express();
  app.use('/v2/auth/keys', fakeAuth(h), createKeysRouter({ keyService: h.service }));
  app.use(renderError);
  return app;
}
