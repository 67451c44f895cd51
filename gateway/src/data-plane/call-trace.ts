import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  failSpan,
  type IncomingTrace,
  SPAN_KIND,
  type Span,
  type Tracer,
  traceparentOf,
  tracestateOf,
} from '@keygate/tracing';
import { redactTokens } from '../keys/token.ts';
import type { KeyRateLimiter, RateLimitDecision } from '../rate-limit/key-rate-limiter.ts';
import type { Call } from './call.ts';
import type { Pass } from './key-check.ts';

/**
 * The gateway's spans, with the OpenTelemetry semantic-convention names: a server span per proxied
 * call (`http.request.method`, `http.route` as the route-table pattern, `url.path`,
 * `http.response.status_code`), children for the key check, the rate limit and the upstream call,
 * and `keygate.key.id` / `keygate.secret.id` once the key is known. No attribute ever holds a
 * header, a token, a secret or part of one: paths are redacted as in the access log.
 * Only built when tracing is on; with it off the data plane never calls into this module.
 */
export interface CallTracing {
  /**
   * Starts the call's server span. True when the sampler records it: then its check goes through
   * `check` and its pass through `passed`. A call left out needs neither, so it takes the untraced
   * path, with only its ids (for the logs and the upstream's `traceparent`).
   */
  start(call: Call, req: IncomingMessage, res: ServerResponse): boolean;
  /** Runs the key check of a recorded call inside a key-check span (ended when the check passes or refuses). */
  check(call: Call, run: () => void): void;
  /** Ends the key-check span of a recorded call the check let through, then hands the call on. */
  passed(next: Pass): Pass;
}

/** `http.route` (the pattern) of a route-table rule `METHOD /pattern`. */
const routeOf = (rule: string) => rule.slice(rule.indexOf(' ') + 1);

function setKeyAttributes(span: Span, call: Call): void {
  const principal = call.principal;
  if (principal === undefined) return;
  span.setAttribute('keygate.key.id', principal.key.id);
  span.setAttribute('keygate.secret.id', principal.secret.id);
  span.setAttribute('keygate.key.environment', principal.key.environment);
}

export function createCallTracing(tracer: Tracer, incoming: IncomingTrace): CallTracing {
  const checks = new WeakMap<Call, Span>();

  function endCheck(call: Call): void {
    const check = checks.get(call);
    if (check === undefined) return;
    checks.delete(call);
    setKeyAttributes(check, call);
    if (call.problem !== undefined) failSpan(check, call.problem);
    check.end();
  }

  function endServer(call: Call, span: Span, status: number): void {
    endCheck(call);
    span.setAttribute('http.response.status_code', status);
    setKeyAttributes(span, call);
    const route = call.route ?? call.match;
    if (route !== null && route !== undefined && route.kind === 'proxy') {
      span.setAttribute('http.route', routeOf(route.rule));
      span.updateName(route.rule);
    }
    if (call.problem !== undefined) {
      span.setAttribute('keygate.problem.code', call.problem);
      failSpan(span, call.problem);
    } else if (status >= 500) failSpan(span, String(status));
    span.end();
  }

  return {
    start(call, req, res) {
      const span = tracer.startServer(call.method, req.headers, incoming);
      call.span = span;
      if (!span.isRecording()) return false;
      span.setAttributes({
        'http.request.method': call.method,
        'url.path': redactTokens(call.path),
        'url.scheme': 'http',
        'keygate.request.id': call.requestId,
      });
      res.on('close', () => endServer(call, span, res.writableFinished ? res.statusCode : 499));
      return true;
    },
    check(call, run) {
      const keyCheck = tracer.startChild('keygate.key_check', call.span, SPAN_KIND.internal);
      checks.set(call, keyCheck);
      tracer.withSpan(keyCheck, run);
    },
    passed(next) {
      return (call, req, res) => {
        endCheck(call);
        next(call, req, res);
      };
    },
  };
}

/** The rate limiter, each decision a `keygate.rate_limit` span (a child of the key check). */
export function traceRateLimiter(limiter: KeyRateLimiter, tracer: Tracer): KeyRateLimiter {
  /** A span when the call is being recorded (the key check's span is active), else none. */
  const started = (keyId: string, perMinute: number) =>
    tracer.activeSpan()?.isRecording()
      ? tracer.startChild('keygate.rate_limit', undefined, SPAN_KIND.internal, {
          'keygate.key.id': keyId,
          'keygate.rate_limit.per_minute': perMinute,
        })
      : undefined;
  const ended = (span: Span | undefined, decision: RateLimitDecision) => {
    if (span === undefined) return decision;
    span.setAttribute('keygate.rate_limit.allowed', decision.allowed);
    span.setAttribute('keygate.rate_limit.remaining', decision.remaining);
    span.end();
    return decision;
  };
  const traced: KeyRateLimiter = {
    consume(keyId, perMinute) {
      const span = started(keyId, perMinute);
      if (span === undefined) return limiter.consume(keyId, perMinute);
      return limiter.consume(keyId, perMinute).then(
        (decision) => ended(span, decision),
        (error: unknown) => {
          failSpan(span, (error as Error).name ?? 'Error');
          span.end();
          throw error;
        },
      );
    },
  };
  const consumeNow = limiter.consumeNow?.bind(limiter);
  if (consumeNow)
    traced.consumeNow = (keyId, perMinute) => ended(started(keyId, perMinute), consumeNow(keyId, perMinute));
  return traced;
}

/** A client span for the call's upstream exchange, a child of its server span. */
export function startUpstreamSpan(tracer: Tracer, call: Call, upstream: string, host: string): Span {
  const colon = host.lastIndexOf(':');
  return tracer.startChild(call.method, call.span, SPAN_KIND.client, {
    'http.request.method': call.method,
    'server.address': colon === -1 ? host : host.slice(0, colon),
    'server.port': colon === -1 ? 80 : Number(host.slice(colon + 1)),
    'keygate.upstream': upstream,
  });
}

/** The trace context an upstream continues: the exchange's span, or the call's when it is not recorded. */
export function upstreamTraceOf(span: Span): { traceparent: string; tracestate: string | undefined } {
  return { traceparent: traceparentOf(span), tracestate: tracestateOf(span) };
}

/** Ends the upstream span with the upstream's status (or the failure that ended the exchange). */
export function endUpstreamSpan(span: Span, status: number, outcome: string): void {
  if (status > 0) span.setAttribute('http.response.status_code', status);
  if (outcome !== 'response') failSpan(span, outcome);
  span.end();
}
