import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Identity, IdentitySigner } from '@keygate/identity';
import type { Span, Tracer } from '@keygate/tracing';
import type { Logger } from 'pino';
import { type Dispatcher, Pool } from 'undici';
import { GatewayError } from '../errors.ts';
import { answerProblem } from '../http/error-handler.ts';
import type { AssertionCache } from '../identity/assertion-cache.ts';
import type { SyncIdentitySigner } from '../identity/identity-signer.ts';
import type { GatewayMetrics } from '../ops/metrics.ts';
import {
  clientResponseHeaderList,
  framingOf,
  identityOf,
  type UpstreamRequest,
  upstreamCostOf,
  upstreamHeaderList,
} from '../proxy/upstream-headers.ts';
import type { RouteMatch } from '../routes/route-matcher.ts';
import { BodyAbortedError, type BodyLimits, bufferedLengthOf, readBody } from './body-reader.ts';
import { applyCallHeaders, type Call } from './call.ts';
import { endUpstreamSpan, startUpstreamSpan, upstreamTraceOf } from './call-trace.ts';
import { continueIfAwaited } from './gateway-listener.ts';

export interface UpstreamPipeOptions {
  /** Every upstream URL the route table names; each is parsed once, up front. */
  targets: readonly string[];
  signer: IdentitySigner | SyncIdentitySigner;
  /** Idle time (ms) after which a silent upstream is answered with 504. */
  timeoutMs: number;
  metrics: GatewayMetrics;
  logger: Logger;
  /** Connections kept open to each upstream at most; calls beyond wait for one (default 256). */
  connectionsPerUpstream?: number;
  /** Bodies within these limits are read in full before an upstream connection is taken (default: all streamed). */
  bodyLimits?: BodyLimits;
  /** Key-bound assertions (KEYGATE_IDENTITY_BINDING=key); without it every call is signed for itself. */
  assertions?: AssertionCache | null;
  /** With tracing on: a client span per upstream exchange, its `traceparent` sent upstream. */
  tracer?: Tracer | null;
  /** Told the cost an upstream named (`Keygate-Cost`) for a call that spent from a budget. */
  charge?: (call: Call, cost: number) => void;
}

/** Answers a call that failed before its upstream answered (the data plane's refusal). */
export type PipeFailure = (call: Call, res: ServerResponse, error: unknown) => void;

export interface UpstreamPipe {
  /**
   * Sends an authorized call to its route's upstream for the caller's environment, with the signed
   * identity, and streams the answer back (the gateway's headers first); 502/504 problem+json when
   * the upstream fails before answering. A failure before the call could be sent (no upstream
   * target, a signature that failed) is thrown, or, once signing went off-thread, handed to `fail`:
   * a callback rather than a promise, which cost each call two promises and four closures.
   */
  forward(call: Call, req: IncomingMessage, res: ServerResponse, fail: PipeFailure): void;
  /** Closes the upstream connections. */
  close(): void;
}

type ProxyRoute = RouteMatch & { kind: 'proxy' };

/** One request's way to its upstream. */
interface Exchange {
  route: ProxyRoute;
  target: Target;
  /** The dispatch under way, once it has a connection: aborting it ends the upstream exchange. */
  controller: Dispatcher.DispatchController | null;
  /** The client closed before its answer was complete. */
  aborted: boolean;
  /** The upstream went silent for the idle timeout (or no connection came free within it). */
  timedOut: boolean;
  /** The exchange's client span (tracing on). */
  span?: Span;
  /** The upstream's status, once it answered. */
  status?: number;
}

interface Target {
  pool: Pool;
  /** The `Host` header the upstream gets. */
  host: string;
  /** Every connection is busy: calls dispatched now wait in the pool's queue. */
  saturated: boolean;
}

/** Methods a call may be sent again by (RFC 9110 §9.2.2) when its connection was lost before any answer. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Idle upstream sockets are closed after this long (ms). */
const IDLE_SOCKET_MS = 4_000;
/** Errors of a connection lost before any byte of the answer: the call may never have been read. */
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
/** undici's errors for an upstream that stayed silent (or could not be reached) for the timeout. */
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** Errors of a connection that went away are answered by its `close`; they must not crash the process. */
function ignoreError(): void {}

/** Tab, space and visible ASCII: what a reason phrase may hold to be relayed (RFC 9112 §4, minus obs-text). */
function isPlainReason(reason: string): boolean {
  for (let i = 0; i < reason.length; i++) {
    const code = reason.charCodeAt(i);
    if (code < 0x20 ? code !== 0x09 : code > 0x7e) return false;
  }
  return true;
}

/** The upstream's reason phrase when it is plain text, else undefined (node:http writes the standard one). */
function reasonOf(reason: string | undefined): string | undefined {
  return reason && isPlainReason(reason) ? reason : undefined;
}

/** The reason a client's departure gives the upstream exchange it cuts short. */
const CLIENT_GONE = new Error('the client closed the connection');

/**
 * A keep-alive pipe to the upstreams over undici's connection pools (one per upstream URL): the
 * request streamed on, the answer streamed back, no proxy library. undici's client costs the event
 * loop less per call than node:http's `request` does (the closing note of #8 has the figures).
 */
export function createUpstreamPipe(options: UpstreamPipeOptions): UpstreamPipe {
  const { metrics, logger, timeoutMs, signer } = options;
  const connections = options.connectionsPerUpstream ?? 256;
  const targets = new Map<string, Target>();
  for (const url of new Set(options.targets)) {
    const parsed = new URL(url);
    const pool = new Pool(parsed.origin, {
      connections,
      pipelining: 1,
      // Idle sockets close after 4 s (or 1 s before the upstream's Keep-Alive hint), below the usual
      // 5 s upstream keep-alive: the gateway, not the upstream, ends an idle connection.
      keepAliveTimeout: IDLE_SOCKET_MS,
      keepAliveMaxTimeout: IDLE_SOCKET_MS,
      keepAliveTimeoutThreshold: 1_000,
      // The upstream's silence is bounded while connecting, before its answer and between body chunks.
      connectTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const target: Target = { pool, host: parsed.host, saturated: false };
    pool.on('drain', () => {
      target.saturated = false;
    });
    targets.set(url, target);
  }
  const signNow = 'signNow' in signer ? signer.signNow : null;
  const signOffThread = 'signOffThread' in signer ? signer.signOffThread : null;
  const assertions = options.assertions ?? null;
  const tracer = options.tracer ?? null;
  /** Proxied requests whose response has not closed yet. */
  let inFlight = 0;

  function observe(route: ProxyRoute, environment: string, startedAt: number, outcome: string) {
    const seconds = (performance.now() - startedAt) / 1e3;
    metrics.upstreamDuration.observe([route.upstream, environment, outcome], seconds);
  }

  function fail(call: Call, res: ServerResponse, route: ProxyRoute, timedOut: boolean, error: Error) {
    logger.warn(
      { err: error, requestId: call.requestId, upstream: route.upstream },
      timedOut ? 'upstream timed out' : 'upstream unavailable',
    );
    const problem = timedOut
      ? new GatewayError(
          'UPSTREAM_TIMEOUT',
          `The ${route.upstream} service did not answer within ${timeoutMs} ms.`,
        )
      : new GatewayError(
          'UPSTREAM_UNAVAILABLE',
          `The ${route.upstream} service could not be reached; retry shortly.`,
        );
    call.problem = problem.code;
    if (!res.headersSent) applyCallHeaders(res, call);
    answerProblem(res, problem, call.requestId);
  }

  /**
   * One dispatch of a call to its upstream (undici's handler): writes the answer's head (the
   * gateway's headers first, then the upstream's), streams its body with backpressure, and answers
   * 502/504 when the upstream fails before answering.
   */
  class Relay implements Dispatcher.DispatchHandler {
    /** The answer's head was written to the client. */
    private started = false;
    /** The outcome was observed (and a failure answered): nothing more is done for the call. */
    private settled = false;
    /** The queue deadline, while the call waits for a free connection. */
    private deadline: NodeJS.Timeout | null = null;
    private readonly startedAt = performance.now();

    private readonly call: Call;
    private readonly res: ServerResponse;
    private readonly exchange: Exchange;
    private readonly dispatch: Dispatcher.DispatchOptions;
    /** The call may go once more if its connection is lost before any byte of the answer. */
    private retriable: boolean;

    constructor(
      call: Call,
      res: ServerResponse,
      exchange: Exchange,
      dispatch: Dispatcher.DispatchOptions,
      retriable: boolean,
    ) {
      this.call = call;
      this.res = res;
      this.exchange = exchange;
      this.dispatch = dispatch;
      this.retriable = retriable;
    }

    /** Hands the call to the pool; with every connection busy, the idle timeout starts now, not with one. */
    send() {
      const { target } = this.exchange;
      if (target.saturated) {
        // Cleared once a connection takes the call; else the call is answered 504 and, when a
        // connection comes free at last, dropped before it is sent.
        this.deadline = setTimeout(() => {
          this.deadline = null;
          this.exchange.timedOut = true;
          this.onResponseError(null, new Error('no upstream connection came free'));
        }, timeoutMs);
      }
      if (!target.pool.dispatch(this.dispatch, this)) target.saturated = true;
    }

    private settle(outcome: string) {
      if (this.settled) return false;
      this.settled = true;
      if (this.deadline) clearTimeout(this.deadline);
      observe(this.exchange.route, this.call.principal!.key.environment, this.startedAt, outcome);
      const { span } = this.exchange;
      if (span) endUpstreamSpan(span, this.exchange.status ?? 0, outcome);
      return true;
    }

    onRequestStart(controller: Dispatcher.DispatchController) {
      const { exchange } = this;
      if (this.deadline) {
        clearTimeout(this.deadline);
        this.deadline = null;
      }
      exchange.controller = controller;
      if (exchange.aborted || this.settled) controller.abort(CLIENT_GONE);
    }

    onResponseStart(
      controller: Dispatcher.DispatchController,
      status: number,
      _headers: unknown,
      statusMessage?: string,
    ) {
      const { call, res, exchange } = this;
      const route = exchange.route;
      const ownHeaders = call.headers.length;
      try {
        // llhttp accepts any three digits; node:http answers only 1xx–999 (and 1xx is no final answer).
        if (status < 200 || status > 999) throw new Error(`upstream answered with status ${status}`);
        exchange.status = status;
        res.writeHead(
          status,
          reasonOf(statusMessage),
          clientResponseHeaderList(
            call.headers,
            controller.rawHeaders as Buffer[],
            route.deprecation !== undefined,
          ),
        );
      } catch (error) {
        // Nothing was written (node validates the whole head first): answer 502 with the gateway's headers only.
        call.headers.length = ownHeaders;
        res.statusMessage = '';
        controller.abort(error as Error);
        if (this.settle('unavailable')) fail(call, res, route, false, error as Error);
        return;
      }
      this.started = true;
      if (call.budget && options.charge) {
        const cost = upstreamCostOf(controller.rawHeaders as Buffer[]);
        if (cost !== undefined) options.charge(call, cost);
      }
    }

    onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer) {
      if (this.res.write(chunk)) return;
      controller.pause();
      this.res.once('drain', () => controller.resume());
    }

    onResponseEnd() {
      this.res.end();
      this.settle('response');
    }

    onResponseError(_controller: Dispatcher.DispatchController | null, error: Error & { code?: string }) {
      const { call, res, exchange } = this;
      if (this.settled) return;
      const timedOut = exchange.timedOut || (error.code !== undefined && TIMEOUTS.has(error.code));
      if (exchange.aborted) this.settle('aborted');
      else if (this.started) {
        // Broken off mid-body by the upstream: the client's response cannot be completed either;
        // recorded as the upstream's failure, not 499.
        call.upstreamFailure = timedOut ? 504 : 502;
        this.settle(timedOut ? 'timeout' : 'unavailable');
        res.destroy();
      } else if (this.retriable && error.code !== undefined && CONNECTION_LOST.has(error.code)) {
        // The upstream may close an idle keep-alive socket just as it is reused: a bodiless call of an
        // idempotent method that got no byte of an answer is sent once more (RFC 9110 §9.2.2), on
        // another connection. undici does not tell whether the lost connection was a reused one, so
        // a fresh connection lost the same way also gets its one resend.
        this.retriable = false;
        exchange.controller = null;
        this.send();
      } else if (this.settle(timedOut ? 'timeout' : 'unavailable')) {
        fail(call, res, exchange.route, timedOut, error);
      }
    }
  }

  function send(
    call: Call,
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange,
    assertion: string,
    body: Buffer | null,
  ) {
    if (exchange.aborted) return;
    const principal = call.principal!;
    const { target } = exchange;
    const framing = framingOf(req.headers);
    const { forwarded } = call;
    let trace: UpstreamRequest['trace'];
    if (tracer && call.span) {
      // An unsampled call gets no span of its own; the upstream still learns its trace (not sampled).
      if (call.span.isRecording())
        exchange.span = startUpstreamSpan(tracer, call, exchange.route.upstream, target.host);
      trace = upstreamTraceOf(exchange.span ?? call.span);
    }
    const upstreamRequest: UpstreamRequest = {
      method: call.method,
      path: call.url,
      host: forwarded?.host ?? req.headers.host,
      scheme: forwarded?.proto ?? ((req.socket as TLSSocket).encrypted === true ? 'https' : 'http'),
      framing,
      trace,
    };
    // A body is streamed on only under the framing the upstream was told (a length above 0, or chunked).
    const streamsBody = framing !== null && framing[1] !== '0';
    const headers = upstreamHeaderList(req.rawHeaders, principal, upstreamRequest, assertion, target.host);
    const dispatch: Dispatcher.DispatchOptions = {
      method: call.method,
      path: call.url,
      headers,
      body: body ?? (streamsBody ? req : null),
    };
    // A stream (server-sent events) may stay silent between events as long as it likes.
    if (exchange.route.stream) dispatch.bodyTimeout = 0;
    const relay = new Relay(call, res, exchange, dispatch, !streamsBody && IDEMPOTENT.has(call.method));
    res.on('error', ignoreError);
    if (streamsBody && body === null) {
      if (req.headers.expect !== undefined) continueIfAwaited(res);
      req.on('error', ignoreError);
    }
    relay.send();
  }

  /** Signs in the signer's worker thread: the event loop serves the other requests in flight meanwhile. */
  function sendSignedOffThread(
    call: Call,
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange,
    identity: Identity,
    fail: PipeFailure,
    body: Buffer | null,
  ) {
    signOffThread!(identity, exchange.route.audience, (error, assertion) => {
      if (error) return fail(call, res, error);
      try {
        send(call, req, res, exchange, assertion, body);
      } catch (failure) {
        fail(call, res, failure);
      }
    });
  }

  /** Signs the call's identity (key-bound, inline, off-thread or asynchronously) and sends it with `body` (or the streamed request). */
  function sign(
    call: Call,
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange,
    fail: PipeFailure,
    body: Buffer | null,
  ) {
    if (assertions) return sendKeyBound(call, req, res, exchange, fail, body);
    const identity = identityOf(call.principal!, call.method, call.url);
    // Alone, signing inline answers soonest; with other requests in flight, the signature goes to
    // the signing worker (batched per event-loop turn), and the event loop keeps serving them.
    if (signOffThread && inFlight > 1)
      return sendSignedOffThread(call, req, res, exchange, identity, fail, body);
    if (signNow) return send(call, req, res, exchange, signNow(identity, exchange.route.audience), body);
    signer
      .sign(identity, exchange.route.audience)
      .then((assertion) => send(call, req, res, exchange, assertion, body))
      .catch((error: unknown) => fail(call, res, error));
  }

  /** Sends with the caller's key-bound assertion: the cached one, else the one signed (or being signed) for it. */
  function sendKeyBound(
    call: Call,
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange,
    fail: PipeFailure,
    body: Buffer | null,
  ) {
    const principal = call.principal!;
    const audience = exchange.route.audience;
    const cached = assertions!.peek(principal, audience);
    if (cached !== null) return send(call, req, res, exchange, cached, body);
    assertions!.sign(principal, audience, inFlight > 1, (error, assertion) => {
      if (error) return fail(call, res, error);
      try {
        send(call, req, res, exchange, assertion, body);
      } catch (failure) {
        fail(call, res, failure);
      }
    });
  }

  return {
    forward(call, req, res, fail) {
      const route = call.route as ProxyRoute;
      const principal = call.principal!;
      const url = route.urls[principal.key.environment];
      const target = url === undefined ? undefined : targets.get(url);
      if (!target)
        throw new Error(`no upstream target built for ${route.upstream}/${principal.key.environment}`);
      // The client left while its key was checked (already observed as 499): nothing to send.
      if (!req.socket || req.socket.destroyed) return;
      const exchange: Exchange = { route, target, controller: null, aborted: false, timedOut: false };
      inFlight++;
      // The client went away before its answer was complete: stop the upstream exchange too
      // (`close` comes once: `on` spares the once-wrapper).
      res.on('close', () => {
        inFlight--;
        if (res.writableFinished) return;
        exchange.aborted = true;
        exchange.controller?.abort(CLIENT_GONE);
      });
      const length = options.bodyLimits ? bufferedLengthOf(req, options.bodyLimits.maxBytes) : null;
      if (length === null) return sign(call, req, res, exchange, fail, null);
      if (req.headers.expect !== undefined) continueIfAwaited(res);
      readBody(req, length, options.bodyLimits!).then(
        (body) => sign(call, req, res, exchange, fail, body),
        (error: unknown) => {
          // Gone: its close was observed already. Overdue: the unread rest of the body leaves no
          // way to reuse the connection, so it closes after the 408.
          if (error instanceof BodyAbortedError) return;
          res.shouldKeepAlive = false;
          fail(call, res, error);
        },
      );
    },
    close() {
      for (const { pool } of targets.values()) pool.destroy().catch(ignoreError);
    },
  };
}
