import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Span } from '@keygate/tracing';
import type { Address } from '../auth/ip-rules.ts';
import type { VerifiedKey } from '../auth/key-verifier.ts';
import type { Principal } from '../auth/principal.ts';
import { pathOf } from '../auth/steps.ts';
import type { BudgetPolicy } from '../budget/policy.ts';
import type { RefusedKey } from '../errors.ts';
import type { ForwardedRequest } from '../http/forwarded.ts';
import { clientRequestIdOf } from '../http/request-context.ts';
import { newRequestId } from '../keys/token.ts';
import type { RouteMatch } from '../routes/route-matcher.ts';
import type { BodyCapture } from './body-capture.ts';

/** Everything the gateway learns about one request on its way through the key pipeline. */
export interface Call {
  /** `req_…`, echoed as X-Request-Id and sent upstream. */
  requestId: string;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** A client-sent X-Request-Id (at most 128 characters, tokens redacted), kept only as a log field. */
  clientRequestId: string | undefined;
  method: string;
  /** Path and query exactly as received. */
  url: string;
  /** The query-free raw path. */
  path: string;
  /** The route the path matched, if any (known before the key is checked). */
  match: RouteMatch | null;
  /** The route once authorized: metrics and log lines name its rule from then on. */
  route: RouteMatch | undefined;
  clientIp: string;
  clientAddress: Address | null;
  /** The scheme and host a trusted proxy in front reported; undefined unless the peer is one. */
  forwarded: ForwardedRequest | undefined;
  verified: VerifiedKey | undefined;
  principal: Principal | undefined;
  /** Response headers the gateway adds, as a flat `[name, value, …]` list. */
  headers: string[];
  /** Set once the call was counted, logged and recorded. */
  observed: boolean;
  /** Set when the upstream failed after its answer began (502, or 504 when it went silent): recorded, not 499. */
  upstreamFailure: 502 | 504 | undefined;
  /** A test key's call: its bodies, kept for the API log (the sandbox). */
  bodies: BodyCapture | undefined;
  /** The problem code the call was answered with, if the gateway refused it (or failed it). */
  problem: string | undefined;
  /** The real key a refusal before the principal was about (expired, revoked, wrong secret): counted for it. */
  refusedKey: RefusedKey | undefined;
  /** The call's server span, when tracing is on. */
  span: Span | undefined;
  /** The budget the call spent from (its policy and cost), so an upstream's `Keygate-Cost` can adjust it. */
  budget: { policy: BudgetPolicy; cost: number } | undefined;
}

/** A fresh call for a request: a new request id, its arrival time, path and matched route. */
export function startCall(req: IncomingMessage, match: RouteMatch | null): Call {
  const url = req.url ?? '/';
  const requestId = newRequestId();
  return {
    requestId,
    startedAt: performance.now(),
    clientRequestId: clientRequestIdOf(req.headers['x-request-id']),
    method: req.method ?? 'GET',
    url,
    path: pathOf(url),
    match,
    route: undefined,
    clientIp: 'unknown',
    clientAddress: null,
    forwarded: undefined,
    verified: undefined,
    principal: undefined,
    headers: ['X-Request-Id', requestId],
    observed: false,
    upstreamFailure: undefined,
    bodies: undefined,
    problem: undefined,
    refusedKey: undefined,
    span: undefined,
    budget: undefined,
  };
}

/** Sets every header the gateway collected for the call on a response not yet started. */
export function applyCallHeaders(res: ServerResponse, call: Call): void {
  const { headers } = call;
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
}
