import type { NextFunction, Request, Response } from 'express';
import { type IpRules, resolveClient } from '../auth/ip-rules.ts';
import { newRequestId, redactTokens } from '../keys/token.ts';

/** A client-sent `X-Request-Id` as logs may hold it: at most 128 characters, token-like text redacted (once, here). */
export function clientRequestIdOf(sent: string | string[] | undefined): string | undefined {
  return typeof sent === 'string' ? redactTokens(sent.slice(0, 128)) : undefined;
}

/**
 * Control-plane routes the gateway answers itself (admin): a fresh request id in `res.locals` and the
 * `X-Request-Id` header, and the caller's own id (`X-Request-Id`, at most 128 characters) for logs.
 */
export function assignRequestId(req: Request, res: Response, next: NextFunction): void {
  const requestId = newRequestId();
  res.locals.requestId = requestId;
  const clientRequestId = clientRequestIdOf(req.headers['x-request-id']);
  if (clientRequestId !== undefined) res.locals.clientRequestId = clientRequestId;
  res.setHeader('X-Request-Id', requestId);
  next();
}

/** Sets `res.locals.clientIp` from the socket, or `X-Forwarded-For` walked from the right through trusted proxies only. */
export function createResolveClientIp(trustedProxies: IpRules) {
  return function resolveClientIp(req: Request, res: Response, next: NextFunction): void {
    res.locals.clientIp = resolveClient(
      req.socket.remoteAddress,
      req.headers['x-forwarded-for'],
      trustedProxies,
    ).text;
    next();
  };
}
