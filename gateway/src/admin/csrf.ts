import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { IpRules } from '../auth/ip-rules.ts';
import { GatewayError } from '../errors.ts';
import { normalizeOrigin, requestOrigin } from './request-origin.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** True for methods that change nothing (no CSRF checks). */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method);
}

function rejected(detail: string): GatewayError {
  return new GatewayError('CSRF_REJECTED', detail);
}

/**
 * The first CSRF line, for every state-changing request (login included): `Sec-Fetch-Site`
 * absent or `same-origin`, and `Origin` absent or equal to the request's own origin. Else 403.
 */
export function createOriginCheck(trustedProxies: IpRules) {
  return function checkOrigin(req: Request, _res: Response, next: NextFunction): void {
    if (isSafeMethod(req.method)) return next();
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') {
      throw rejected('Cross-site requests are refused; use the admin interface on this origin.');
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const own = requestOrigin(req, trustedProxies);
      if (own === null || normalizeOrigin(origin) !== own) {
        throw rejected('The request comes from another origin; use the admin interface on this origin.');
      }
    }
    next();
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The second CSRF line: `X-CSRF-Token` equal to the session's token, compared in constant time. Else 403. */
export function assertCsrfToken(expected: string, sent: string | string[] | undefined): void {
  if (typeof sent !== 'string' || !timingSafeEqual(digest(sent), digest(expected))) {
    throw rejected("Send the session's csrfToken in the X-CSRF-Token header.");
  }
}
