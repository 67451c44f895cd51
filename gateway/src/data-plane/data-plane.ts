import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createBenchCallers } from '../auth/policies-off.ts';
import { checkRequestPath, pathOf } from '../auth/steps.ts';
import { GatewayError } from '../errors.ts';
import { assertUnambiguousFraming } from '../proxy/upstream-headers.ts';
import type { RouteMatch, RouteMatcher } from '../routes/route-matcher.ts';
import { applyCallHeaders, type Call, startCall } from './call.ts';
import type { CallObserver } from './call-observer.ts';
import type { CallTracing } from './call-trace.ts';
import { addDeprecationHeaders, type KeyCheck, type Pass } from './key-check.ts';
import { createRefusal } from './refusal.ts';
import type { StreamWatch } from './stream-watch.ts';
import type { PipeFailure, UpstreamPipe } from './upstream-pipe.ts';

type ProxyRoute = RouteMatch & { kind: 'proxy' };
type Proxied = (req: IncomingMessage, res: ServerResponse, route: ProxyRoute) => void;

/** Hands an authorized call to the pipe; a failure before the upstream answered becomes a refusal. */
function forwardWith(pipe: UpstreamPipe, refuse: PipeFailure) {
  return (call: Call, req: IncomingMessage, res: ServerResponse): void => {
    try {
      pipe.forward(call, req, res, refuse);
    } catch (error) {
      refuse(call, res, error);
    }
  };
}

/**
 * Bounds the proxied requests one key has in flight on this instance (until each response closes):
 * beyond `max`, 429 TOO_MANY_CONCURRENT_REQUESTS with `Retry-After: 1` (and the rate-limit headers
 * the key check set). The upstream pools are shared by every key, so without a bound one
 * integration (slow bodies, slow downloads, a retry storm) can hold every connection and every
 * other key waits for a 504; with it, one key holds at most `max` of them.
 */
export function limitPerKey(max: number, refuse: KeyCheck['refuse'], forward: Pass): Pass {
  const inFlight = new Map<string, number>();
  return (call, req, res) => {
    // The client left while its key was checked (on Redis that waits for a round trip): nobody
    // waits for an answer, so nothing goes upstream, and no slot is taken, since its 'close' has
    // been and gone and would never give the slot back.
    if (res.closed) return;
    const keyId = call.principal!.key.id;
    const count = inFlight.get(keyId) ?? 0;
    if (count >= max) {
      call.headers.push('Retry-After', '1');
      refuse(
        call,
        res,
        new GatewayError(
          'TOO_MANY_CONCURRENT_REQUESTS',
          `This key may have ${max} requests in flight at once; retry when one finished.`,
          { retryAfter: 1 },
        ),
      );
      return;
    }
    inFlight.set(keyId, count + 1);
    res.once('close', () => {
      const left = (inFlight.get(keyId) ?? 1) - 1;
      if (left > 0) inFlight.set(keyId, left);
      else inFlight.delete(keyId);
    });
    forward(call, req, res);
  };
}

/** The data plane with policies on: observed call, key pipeline, per-key concurrency cap, raw pipe to the upstream. */
export function createProxiedHandler(deps: {
  keyCheck: KeyCheck;
  observer: CallObserver;
  pipe: UpstreamPipe;
  /** Proxied requests one key may have in flight at once (default: unbounded). */
  keyMaxConcurrent?: number;
  /** Ends the answers of stream routes (server-sent events) once their key fails. */
  streams?: StreamWatch;
  /** Spans for each call (tracing on); absent, the data plane makes none. */
  tracing?: CallTracing;
}): Proxied {
  const { keyCheck, observer, streams, tracing } = deps;
  const send = forwardWith(deps.pipe, keyCheck.refuse);
  const direct: Pass = streams
    ? (call, req, res) => {
        if ((call.route as ProxyRoute).stream) streams.watch(call, req, res);
        send(call, req, res);
      }
    : send;
  // An open stream holds one of its key's slots for as long as it lasts.
  const forward =
    deps.keyMaxConcurrent === undefined
      ? direct
      : limitPerKey(deps.keyMaxConcurrent, keyCheck.refuse, direct);
  if (tracing) {
    const passed = tracing.passed(forward);
    return (req, res, route) => {
      const call = startCall(req, route);
      observer.watch(call, res);
      if (tracing.start(call, req, res)) tracing.check(call, () => keyCheck.run(call, req, res, passed));
      else keyCheck.run(call, req, res, forward);
    };
  }
  return (req, res, route) => {
    const call = startCall(req, route);
    observer.watch(call, res);
    keyCheck.run(call, req, res, forward);
  };
}

/**
 * The key pipeline for what Express serves under it (the key-management API at `/v2/auth/keys`) and
 * for unknown paths (401 without a key, else 404). A call it lets through reaches the next handler
 * with `res.locals` `requestId`, `clientRequestId`, `principal`, `route` and `clientIp` set.
 */
export function createKeyPipelineMiddleware(deps: {
  routes: RouteMatcher;
  keyCheck: KeyCheck;
  observer: CallObserver;
  /** Spans for each call (tracing on). */
  tracing?: CallTracing;
}): RequestHandler {
  const { routes, keyCheck, observer, tracing } = deps;
  return (req: Request, res: Response, next: NextFunction) => {
    const call = startCall(req, routes.match(req.method, pathOf(req.originalUrl)));
    res.locals.requestId = call.requestId;
    res.locals.clientRequestId = call.clientRequestId;
    observer.watch(call, res);
    const pass: Pass = (passed) => {
      res.locals.principal = passed.principal;
      res.locals.route = passed.route;
      res.locals.clientIp = passed.clientIp;
      applyCallHeaders(res, passed);
      next();
    };
    if (tracing?.start(call, req, res))
      tracing.check(call, () => keyCheck.run(call, req, res, tracing.passed(pass)));
    else keyCheck.run(call, req, res, pass);
  };
}

/**
 * The data plane of the benchmarking mode (KEYGATE_POLICIES=off): request id, path checks and
 * routing as usual, then the request goes upstream as a fixed test-environment caller holding the
 * route's scope. Nothing is counted, logged per request or recorded.
 */
export function createPoliciesOffHandler(deps: {
  pipe: UpstreamPipe;
  refusal: Parameters<typeof createRefusal>[0];
}): Proxied {
  const callerFor = createBenchCallers();
  const refuse = createRefusal(deps.refusal);
  const forward = forwardWith(deps.pipe, refuse);
  return (req, res, route) => {
    const call = startCall(req, route);
    try {
      checkRequestPath(call.path, call.url);
      assertUnambiguousFraming(req.headers);
    } catch (error) {
      refuse(call, res, error);
      return;
    }
    if (route.deprecation) addDeprecationHeaders(call, route.deprecation);
    call.route = route;
    call.clientIp = req.socket.remoteAddress ?? 'unknown';
    call.principal = { ...callerFor(route), clientIp: call.clientIp, requestId: call.requestId };
    forward(call, req, res);
  };
}

/** Benchmarking mode, everything Express would pass on: path checks (404/400), then 404, as there are no keys. */
export function policiesOffFallback(req: Request, res: Response): void {
  const call = startCall(req, null);
  res.locals.requestId = call.requestId;
  applyCallHeaders(res, call);
  checkRequestPath(call.path, call.url);
  throw new GatewayError('ROUTE_NOT_FOUND', `No route for ${req.method} ${call.path}.`);
}
