import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildProblem, writeProblem } from '@keygate/problem';
import { type Environment, IDENTITY_HEADER, type Identity } from './claims.ts';
import { hasScope } from './scopes.ts';
import { IdentityError, type IdentityVerifier } from './verifier.ts';

type Request = IncomingMessage & { originalUrl?: string };
type Response = ServerResponse & { locals?: Record<string, unknown> };
type Next = (error?: unknown) => void;

const identities = new WeakMap<IncomingMessage, Identity>();

/** The verified identity of a request that passed `requireIdentity`, or undefined. */
export function getIdentity(req: IncomingMessage): Identity | undefined {
  return identities.get(req);
}

/**
 * Express middleware: refuses (401 problem+json) a request without a valid assertion for
 * itself, and (403) one whose environment is not this service's.
 */
export function requireIdentity(options: { verifier: IdentityVerifier; environment: Environment }) {
  const { verifier, environment } = options;
  return async function verifyIdentity(req: Request, res: Response, next: Next): Promise<void> {
    const header = req.headers[IDENTITY_HEADER];
    const token = Array.isArray(header) ? undefined : header;
    let identity: Identity;
    try {
      identity = await verifier.verify(token, {
        method: req.method ?? 'GET',
        path: req.originalUrl ?? req.url ?? '/',
      });
    } catch (error) {
      if (!(error instanceof IdentityError)) return next(error);
      return writeProblem(res, buildProblem(error.code, 401, 'Unauthenticated', error.message), {
        'WWW-Authenticate': 'Bearer realm="keygate"',
      });
    }
    if (identity.environment !== environment) {
      return writeProblem(
        res,
        buildProblem(
          'ENVIRONMENT_MISMATCH',
          403,
          'Wrong environment',
          `This is the ${environment} service; a ${identity.environment} key cannot reach it.`,
        ),
      );
    }
    identities.set(req, identity);
    if (res.locals) res.locals.identity = identity;
    next();
  };
}

/** Express middleware: refuses (403 problem+json) a verified identity that lacks `scope`. */
export function requireScope(scope: string) {
  return function checkScope(req: Request, res: Response, next: Next): void {
    const identity = identities.get(req);
    if (!identity) {
      return writeProblem(
        res,
        buildProblem('IDENTITY_MISSING', 401, 'Unauthenticated', 'No verified identity.'),
      );
    }
    if (!hasScope(identity.scopes, scope)) {
      return writeProblem(
        res,
        buildProblem('INSUFFICIENT_SCOPE', 403, 'Missing scope', `This operation needs the ${scope} scope.`, {
          requiredScope: scope,
        }),
      );
    }
    next();
  };
}
