import { RESOURCES } from '@keygate/identity';
import type { NextFunction, Request, Response, Router } from 'express';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.ts';
import { GatewayError } from '../errors.ts';
import { parseInput } from '../keys/key-input.ts';
import { parseJsonBody } from '../keys-api/json-body.ts';
import type { AdminSession } from '../model/model.ts';
import { LoginInputSchema } from './admin-schemas.ts';
import { assertCsrfToken, isSafeMethod } from './csrf.ts';
import {
  formatClearedSessionCookie,
  formatSessionCookie,
  isSecureCookie,
  readSessionCookie,
} from './session-cookie.ts';
import type { SessionService } from './session-service.ts';

/** What the session routes and the session guard need. */
export interface SessionRoutesDeps {
  config: Readonly<GatewayConfig>;
  sessions: SessionService;
  logger: Pick<Logger, 'info'>;
  /** The request's scheme as the browser used it (for `Secure`). */
  schemeOf(req: Request): 'http' | 'https';
}

/** The settings the interface needs to build its forms. */
function settingsOf(config: Readonly<GatewayConfig>) {
  return {
    environments: ['live', 'test'],
    scopes: RESOURCES.flatMap((resource) => [`${resource}:r`, `${resource}:rw`]),
    maxOverlapDays: config.maxOverlapDays,
    defaultRateLimitPerMinute: config.defaultRateLimitPerMinute,
    expiryReminderDays: config.expiryReminderDays,
  };
}

/** The `Session` body of the contract (plus `idleExpiresAt`). */
function sessionView(session: AdminSession, config: Readonly<GatewayConfig>) {
  return {
    user: { id: session.userId, email: session.email },
    csrfToken: session.csrfToken,
    idleTimeoutSeconds: config.adminSessionIdleMinutes * 60,
    idleExpiresAt: new Date(session.idleExpiresAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
    settings: settingsOf(config),
  };
}

/** The administrator session of a request that passed `requireSession`. */
export function sessionOf(res: Response): AdminSession {
  const session = res.locals.adminSession as AdminSession | undefined;
  if (!session) throw new Error('admin route reached without a session (requireSession not mounted)');
  return session;
}

/**
 * Login (`POST /session`, before the session guard), the session guard itself (401 without a live
 * session, 403 without the session's X-CSRF-Token on a state-changing call; then the idle expiry
 * slides), `GET /session` and logout (`DELETE /session`).
 */
export function addSessionRoutes(router: Router, deps: SessionRoutesDeps): void {
  const { config, sessions } = deps;
  const secure = (req: Request) => isSecureCookie(config.adminCookieSecure, deps.schemeOf(req));

  router.post('/session', parseJsonBody, async (req, res) => {
    const input = parseInput(LoginInputSchema, req.body);
    const started = await sessions.login(input, res.locals.clientIp as string);
    const previous = readSessionCookie(req.headers.cookie);
    if (previous) await sessions.logout(previous);
    res.setHeader('Set-Cookie', formatSessionCookie(started.token, secure(req)));
    res.status(201).json(sessionView(started.session, config));
  });

  router.use(async function requireSession(req: Request, res: Response, next: NextFunction) {
    const token = readSessionCookie(req.headers.cookie);
    const found = token ? await sessions.find(token) : null;
    if (!found) {
      throw new GatewayError(
        'ADMIN_SESSION_REQUIRED',
        'Log in to the admin interface first; API keys are not accepted here.',
      );
    }
    if (!isSafeMethod(req.method)) assertCsrfToken(found.csrfToken, req.headers['x-csrf-token']);
    const session = await sessions.touch(found);
    if (!session) throw new GatewayError('ADMIN_SESSION_REQUIRED', 'The session ended; log in again.');
    res.locals.adminSession = session;
    res.locals.adminToken = token;
    next();
  });

  router.get('/session', (_req, res) => {
    res.json(sessionView(sessionOf(res), config));
  });

  router.delete('/session', async (req, res) => {
    await sessions.logout(res.locals.adminToken as string);
    const { userId, email } = sessionOf(res);
    deps.logger.info({ email, userId, clientIp: res.locals.clientIp }, 'admin logged out');
    res.setHeader('Set-Cookie', formatClearedSessionCookie(secure(req)));
    res.status(204).end();
  });
}
