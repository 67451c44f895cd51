import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { GatewayError } from '../errors.ts';
import { redactTokens } from '../keys/token.ts';
import type { GatewayMetrics } from '../ops/metrics.ts';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.ts';
import type { RouteMatcher } from '../routes/route-matcher.ts';
import { MAX_LOGGED_PATH, type UsageRecorder } from '../usage/usage-recorder.ts';
import type { IpRules } from './ip-rules.ts';
import type { KeyVerifier } from './key-verifier.ts';
import type { Principal } from './principal.ts';
import {
  assignRequestId,
  checkIpAllowlist,
  checkPath,
  createAddExpiryNotice,
  createAnnounceDeprecation,
  createAuthorizeRoute,
  createConsumeRateLimit,
  createResolveClientIp,
  createVerifyKey,
  parseBearer,
  routeOf,
} from './steps.ts';

export interface PipelineDeps {
  routes: RouteMatcher;
  verifier: KeyVerifier;
  rateLimiter: KeyRateLimiter;
  trustedProxies: IpRules;
  recorder: UsageRecorder;
  metrics: GatewayMetrics;
  /** The largest expiry-reminder lead time, in days. */
  reminderLeadDays: number;
  clock: () => number;
  /** Receives one `request` line per answered request (info level), tokens redacted. */
  logger?: Logger;
}

/** One structured access-log line: ids, route, status, latency; never a header, token-like text redacted. */
function logRequest(
  logger: Logger | undefined,
  req: Request,
  res: Response,
  status: number,
  latencyMs: number,
): void {
  if (!logger?.isLevelEnabled('info')) return;
  const principal = res.locals.principal as Principal | undefined;
  const clientRequestId = res.locals.clientRequestId as string | undefined;
  logger.info(
    {
      requestId: res.locals.requestId as string,
      clientRequestId: clientRequestId && redactTokens(clientRequestId).slice(0, MAX_LOGGED_PATH),
      method: req.method,
      path: redactTokens(req.originalUrl).slice(0, MAX_LOGGED_PATH),
      status,
      rule: routeOf(res)?.rule,
      keyId: principal?.key.id,
      secretId: principal?.secret.id,
      clientIp: res.locals.clientIp as string | undefined,
      latencyMs: Math.round(latencyMs * 1e3) / 1e3,
    },
    'request',
  );
}

/** Status recorded for a request the client closed before its response finished (as nginx logs it). */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Counts requests by rule/environment/status and records authenticated calls once, when the
 * response finished or, for a request the client aborted (no `finish`), when the connection closed,
 * with status 499.
 */
function createObserveResponse(deps: PipelineDeps) {
  return function observeResponse(req: Request, res: Response, next: NextFunction): void {
    let observed = false;
    const observe = (status: number) => {
      if (observed) return;
      observed = true;
      const principal = res.locals.principal as Principal | undefined;
      const environment = principal?.key.environment ?? 'none';
      const rule = routeOf(res)?.rule ?? 'none';
      deps.metrics.requests.inc({ rule, environment, status: String(status) });
      const latencyMs = Number(process.hrtime.bigint() - (res.locals.startedAt as bigint)) / 1e6;
      logRequest(deps.logger, req, res, status, latencyMs);
      if (!principal) return;
      deps.recorder.record({
        requestId: principal.requestId,
        keyId: principal.key.id,
        secretId: principal.secret.id,
        method: req.method,
        path: req.originalUrl,
        status,
        latencyMs,
        clientIp: principal.clientIp,
        atMs: deps.clock(),
      });
    };
    res.on('finish', () => observe(res.statusCode));
    res.on('close', () => {
      if (!res.writableFinished) observe(CLIENT_CLOSED_REQUEST);
    });
    next();
  };
}

/** Wraps a step so every refusal it throws is counted by reason; keeps the step's name. */
function counted(step: RequestHandler, metrics: GatewayMetrics): RequestHandler {
  const count = (error: unknown) => {
    if (error instanceof GatewayError) {
      if (error.code === 'RATE_LIMITED') metrics.rateLimited.inc();
      else if (error.status === 401 || error.status === 403) metrics.authFailures.inc({ reason: error.code });
    }
  };
  // Synchronous steps stay synchronous (no promise per step and request); async ones are awaited.
  const wrapped = (req: Request, res: Response, next: NextFunction) => {
    let result: unknown;
    try {
      result = step(req, res, next);
    } catch (error) {
      count(error);
      throw error;
    }
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      count(error);
      throw error;
    });
  };
  Object.defineProperty(wrapped, 'name', { value: step.name });
  return wrapped as RequestHandler;
}

/**
 * The key pipeline, in order. Everything under `/v2/` passes through it; management routes and
 * the proxy come after it and read `res.locals.principal` and `res.locals.route`.
 * The client IP is resolved before the key is checked so refusals carry it in logs too.
 */
export function createKeyPipeline(deps: PipelineDeps): RequestHandler[] {
  const steps: RequestHandler[] = [
    assignRequestId,
    createObserveResponse(deps),
    checkPath,
    createAnnounceDeprecation(deps.routes),
    createResolveClientIp(deps.trustedProxies),
    parseBearer,
    createVerifyKey(deps.verifier),
    checkIpAllowlist,
    createAuthorizeRoute(deps.routes),
    createConsumeRateLimit(deps.rateLimiter, deps.verifier),
    createAddExpiryNotice(deps.reminderLeadDays, deps.clock),
  ];
  return steps.map((step) => counted(step, deps.metrics));
}
