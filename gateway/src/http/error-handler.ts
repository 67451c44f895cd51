import type { ServerResponse } from 'node:http';
import { writeProblem } from '@keygate/problem';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ERRORS, GatewayError } from '../errors.ts';
import { redactTokens } from '../keys/token.ts';

/** `WWW-Authenticate` for a 401: plain Bearer when no key was sent, `invalid_token` otherwise (RFC 6750). */
export function wwwAuthenticate(error: GatewayError): string {
  return error.code === 'MISSING_KEY'
    ? 'Bearer realm="keygate"'
    : 'Bearer realm="keygate", error="invalid_token"';
}

/** The 4xx `status` / `statusCode` an error from Express, the router or a body parser carries, else null. */
function clientStatusOf(error: unknown): number | null {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && value >= 400 && value < 500 ? value : null;
}

/**
 * Maps errors thrown by body parsers (`type`) to gateway errors, then any other error carrying a 4xx
 * `status`/`statusCode` (router, body parser) or a URIError (malformed percent-encoding) to 400
 * MALFORMED_REQUEST; everything else is INTERNAL.
 */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') {
    return new GatewayError('MALFORMED_BODY', 'The request body is not valid JSON.');
  }
  if (type === 'entity.too.large') {
    return new GatewayError('PAYLOAD_TOO_LARGE', 'The request body is larger than this endpoint accepts.');
  }
  if (error instanceof URIError || clientStatusOf(error) !== null) {
    return new GatewayError('MALFORMED_REQUEST', 'The request could not be read; check its encoding.');
  }
  return new GatewayError('INTERNAL', 'Something went wrong on our side; the request id helps us find it.');
}

/** The one error handler, registered last: problem+json, request id as `instance`, 5xx causes logged not shown. */
export function createErrorHandler(logger: Logger) {
  return function handleError(error: unknown, req: Request, res: Response, _next: NextFunction): void {
    const requestId = res.locals.requestId as string | undefined;
    const problem = toGatewayError(error);
    const clientRequestId = res.locals.clientRequestId as string | undefined;
    if (problem.status >= 500) {
      const cause = error instanceof GatewayError ? (error.cause ?? error) : error;
      logger.error(
        { err: cause, requestId, clientRequestId, method: req.method, path: redactTokens(req.path) },
        'request failed',
      );
    } else {
      logger.debug({ code: problem.code, requestId, clientRequestId }, 'request refused');
    }
    answerProblem(res, problem, requestId);
  };
}

/**
 * Answers a gateway error as problem+json (request id as `instance`) with `WWW-Authenticate` on a
 * 401 and `Retry-After` when the error names one; cuts the connection if a response already started.
 */
export function answerProblem(
  res: ServerResponse,
  problem: GatewayError,
  requestId: string | undefined,
): void {
  if (res.headersSent) {
    // Part of a response is out: nothing sensible can follow, so cut the connection.
    res.destroy();
    return;
  }
  const headers: Record<string, string> = {};
  // Admin 401s are about a session cookie, not a Bearer key: no Bearer challenge for them.
  const isAdminOnly = ERRORS[problem.code].surface === 'admin';
  if (problem.status === 401 && !isAdminOnly) headers['WWW-Authenticate'] = wwwAuthenticate(problem);
  const { retryAfter } = problem.extensions;
  if (typeof retryAfter === 'number' && !res.hasHeader('Retry-After')) {
    headers['Retry-After'] = String(retryAfter);
  }
  writeProblem(res, problem.toProblem(requestId), headers);
}

/** The fallback for paths nothing answered. */
export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new GatewayError('ROUTE_NOT_FOUND', `No route for ${req.method} ${req.path}.`));
}
