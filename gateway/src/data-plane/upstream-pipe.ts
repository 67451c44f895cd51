import { Agent, type ClientRequest, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Identity, IdentitySigner } from '@keygate/identity';
import type { Logger } from 'pino';
import { GatewayError } from '../errors.ts';
import { answerProblem } from '../http/error-handler.ts';
import type { SyncIdentitySigner } from '../identity/identity-signer.ts';
import type { GatewayMetrics } from '../ops/metrics.ts';
import {
  clientResponseHeaderList,
  framingOf,
  identityOf,
  upstreamHeaderList,
} from '../proxy/upstream-headers.ts';
import type { RouteMatch } from '../routes/route-matcher.ts';
import { applyCallHeaders, type Call } from './call.ts';
import { continueIfAwaited } from './gateway-listener.ts';

export interface UpstreamPipeOptions {
  /** Every upstream URL the route table names; each is parsed once, up front. */
  targets: readonly string[];
  signer: IdentitySigner | SyncIdentitySigner;
  /** Idle time (ms) after which a silent upstream is answered with 504. */
  timeoutMs: number;
  metrics: GatewayMetrics;
  logger: Logger;
}

export interface UpstreamPipe {
  /**
   * Sends an authorized call to its route's upstream for the caller's environment, with the signed
   * identity, and streams the answer back (the gateway's headers first); 502/504 problem+json when
   * the upstream fails before answering.
   */
  forward(call: Call, req: IncomingMessage, res: ServerResponse): void | Promise<void>;
  /** Closes idle upstream connections. */
  close(): void;
}

type ProxyRoute = RouteMatch & { kind: 'proxy' };

/** One request's way to its upstream. */
interface Exchange {
  route: ProxyRoute;
  target: Target;
  proxyReq: ClientRequest | null;
  /** The client closed before its answer was complete. */
  aborted: boolean;
  /** The upstream went silent for the idle timeout. */
  timedOut: boolean;
}

interface Target {
  request: typeof request;
  agent: Agent;
  hostname: string;
  port: string;
  /** The `Host` header the upstream gets. */
  host: string;
  /** The agent's key for this target's connections and queue. */
  name: string;
}

/** Methods a call may be sent again by (RFC 9110 §9.2.2) when it cannot have reached the upstream. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Idle upstream sockets are closed after this long (ms). */
const IDLE_SOCKET_MS = 4_000;

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

/** A raw node:http keep-alive pipe to the upstreams: no proxy library, the request streamed both ways. */
export function createUpstreamPipe(options: UpstreamPipeOptions): UpstreamPipe {
  const { metrics, logger, timeoutMs, signer } = options;
  // Idle sockets close after 4 s (or 1 s before the upstream's Keep-Alive hint), below the usual 5 s
  // upstream keep-alive: the gateway, not the upstream, ends an idle connection.
  const agentOptions = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: IDLE_SOCKET_MS };
  const httpAgent = new Agent(agentOptions);
  const httpsAgent = new HttpsAgent(agentOptions);
  const targets = new Map<string, Target>();
  for (const url of new Set(options.targets)) {
    const parsed = new URL(url);
    const https = parsed.protocol === 'https:';
    const agent = https ? httpsAgent : httpAgent;
    const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
    const port = parsed.port || (https ? '443' : '80');
    targets.set(url, {
      request: https ? (httpsRequest as typeof request) : request,
      agent,
      hostname,
      port,
      host: parsed.host,
      name: agent.getName({ host: hostname, port }),
    });
  }
  const signNow = 'signNow' in signer ? signer.signNow : null;
  const signOffThread = 'signOffThread' in signer ? signer.signOffThread : null;
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
    if (!res.headersSent) applyCallHeaders(res, call);
    answerProblem(res, problem, call.requestId);
  }

  /** Streams the upstream's answer back: the gateway's headers first, then the upstream's. */
  function relay(
    call: Call,
    res: ServerResponse,
    upstream: IncomingMessage,
    exchange: Exchange,
    settle: (outcome: string) => boolean,
  ) {
    const route = call.route as ProxyRoute;
    const status = upstream.statusCode ?? 0;
    const ownHeaders = call.headers.length;
    try {
      // llhttp accepts any three digits; node:http answers only 1xx–999 (and 1xx is no final answer).
      if (status < 200 || status > 999) throw new Error(`upstream answered with status ${status}`);
      res.writeHead(
        status,
        reasonOf(upstream.statusMessage),
        clientResponseHeaderList(call.headers, upstream, route.deprecation !== undefined),
      );
    } catch (error) {
      // Nothing was written (node validates the whole head first): answer 502 with the gateway's headers only.
      upstream.on('error', ignoreError);
      upstream.destroy();
      call.headers.length = ownHeaders;
      res.statusMessage = '';
      if (settle('unavailable')) fail(call, res, route, false, error as Error);
      return;
    }
    upstream.on('end', () => settle('response'));
    // Broken off mid-body: by the client (which destroyed the exchange), or by the upstream, and then
    // the client's response cannot be completed either; recorded as the upstream's failure, not 499.
    upstream.on('error', () => {
      if (exchange.aborted) settle('aborted');
      else {
        call.upstreamFailure = exchange.timedOut ? 504 : 502;
        settle(exchange.timedOut ? 'timeout' : 'unavailable');
      }
      res.destroy();
    });
    upstream.pipe(res);
  }

  function send(
    call: Call,
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange,
    assertion: string,
  ) {
    if (exchange.aborted) return;
    const route = call.route as ProxyRoute;
    const principal = call.principal!;
    const { target } = exchange;
    const framing = framingOf(req.headers);
    const { forwarded } = call;
    const upstreamRequest = {
      method: call.method,
      path: call.url,
      host: forwarded?.host ?? req.headers.host,
      scheme: forwarded?.proto ?? ((req.socket as TLSSocket).encrypted === true ? 'https' : 'http'),
      framing,
    };
    const options = {
      hostname: target.hostname,
      port: target.port,
      method: call.method,
      path: call.url,
      headers: upstreamHeaderList(req.rawHeaders, principal, upstreamRequest, assertion, target.host),
      agent: target.agent,
      timeout: timeoutMs,
    };
    const startedAt = performance.now();
    let settled = false;
    const settle = (outcome: string) => {
      if (settled) return false;
      settled = true;
      observe(route, principal.key.environment, startedAt, outcome);
      return true;
    };
    // A body is streamed on only under the framing the upstream was told (a length above 0, or chunked).
    const streamsBody = framing !== null && framing[1] !== '0';
    // The upstream may close an idle keep-alive socket just as it is reused: a call it cannot have
    // processed (bodiless, idempotent) is sent once more, on another socket.
    let retriable = !streamsBody && IDEMPOTENT.has(call.method);
    const issue = (): ClientRequest => {
      const proxyReq = target.request(options);
      exchange.proxyReq = proxyReq;
      if (target.agent.requests[target.name]?.length) limitQueueing(proxyReq, exchange);
      proxyReq.on('timeout', () => {
        exchange.timedOut = true;
        proxyReq.destroy();
      });
      proxyReq.on('error', (error: NodeJS.ErrnoException) => {
        if (exchange.aborted) settle('aborted');
        else if (retriable && proxyReq.reusedSocket && error.code === 'ECONNRESET') {
          retriable = false;
          issue().end();
        } else if (settle(exchange.timedOut ? 'timeout' : 'unavailable'))
          fail(call, res, route, exchange.timedOut, error);
      });
      proxyReq.on('response', (upstream: IncomingMessage) => relay(call, res, upstream, exchange, settle));
      // A protocol switch was never asked for (Upgrade is not forwarded): node hands over the socket and
      // fires neither 'response' nor 'error', so without this the client would wait forever.
      proxyReq.on('upgrade', (upstream: IncomingMessage, socket) => {
        socket.destroy();
        if (settle('unavailable'))
          fail(call, res, route, false, new Error(`upstream switched protocols (${upstream.statusCode})`));
      });
      return proxyReq;
    };
    const proxyReq = issue();
    res.on('error', ignoreError);
    if (streamsBody) {
      if (req.headers.expect !== undefined) continueIfAwaited(res);
      req.on('error', ignoreError);
      req.pipe(proxyReq);
    } else proxyReq.end();
  }

  /** A request waiting for a free socket: the idle timeout only starts with one, so the deadline starts now. */
  function limitQueueing(proxyReq: ClientRequest, exchange: Exchange) {
    const deadline = setTimeout(() => {
      exchange.timedOut = true;
      proxyReq.destroy();
    }, timeoutMs);
    proxyReq.once('socket', () => clearTimeout(deadline));
    proxyReq.once('close', () => clearTimeout(deadline));
  }

  /** Signs in the signer's worker thread: the event loop serves the other requests in flight meanwhile. */
  function sendSignedOffThread(
    call: Call,
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange,
    identity: Identity,
  ) {
    const sign = signOffThread!;
    return new Promise<void>((resolve, reject) => {
      sign(identity, exchange.route.audience, (error, assertion) => {
        if (error) return reject(error);
        try {
          send(call, req, res, exchange, assertion);
          resolve();
        } catch (failure) {
          reject(failure);
        }
      });
    });
  }

  return {
    forward(call, req, res) {
      const route = call.route as ProxyRoute;
      const principal = call.principal!;
      const url = route.urls[principal.key.environment];
      const target = url === undefined ? undefined : targets.get(url);
      if (!target)
        throw new Error(`no upstream target built for ${route.upstream}/${principal.key.environment}`);
      // The client left while its key was checked (already observed as 499): nothing to send.
      if (!req.socket || req.socket.destroyed) return;
      const exchange: Exchange = { route, target, proxyReq: null, aborted: false, timedOut: false };
      inFlight++;
      // The client went away before its answer was complete: stop the upstream exchange too
      // (`close` comes once: `on` spares the once-wrapper).
      res.on('close', () => {
        inFlight--;
        if (res.writableFinished) return;
        exchange.aborted = true;
        exchange.proxyReq?.destroy();
      });
      const identity = identityOf(principal, call.method, call.url);
      // Alone, signing inline answers soonest; with other requests in flight, the ~24 µs of ES256
      // (36 of EdDSA) go to the signing worker (batched per event-loop turn), and the event loop
      // keeps serving them.
      if (signOffThread && inFlight > 1) return sendSignedOffThread(call, req, res, exchange, identity);
      if (signNow) return send(call, req, res, exchange, signNow(identity, route.audience));
      return signer
        .sign(identity, route.audience)
        .then((assertion) => send(call, req, res, exchange, assertion));
    },
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
