import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { pathOf } from '../auth/steps.ts';
import { GatewayError } from '../errors.ts';
import { answerProblem } from '../http/error-handler.ts';
import type { RouteMatch, RouteMatcher } from '../routes/route-matcher.ts';

/** The gateway's request listener, with Express's `listen` convenience. */
export interface GatewayListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /** A node:http server running this listener, listening (like Express's `app.listen`). */
  listen(port?: number, host?: string, callback?: () => void): Server;
}

/** Responses whose client waits for `100 Continue` before sending its body (`Expect: 100-continue`). */
const awaitingContinue = new WeakSet<ServerResponse>();

/** Sends `100 Continue` if the client still waits for it: once its request passed the key check, never before. */
export function continueIfAwaited(res: ServerResponse): void {
  if (awaitingContinue.delete(res)) res.writeContinue();
}

/** An exception no handler caught: logged, answered 500 (or the connection cut), never a crash. */
function answerUnexpected(logger: Logger, req: IncomingMessage, res: ServerResponse, error: unknown) {
  logger.error({ err: error, method: req.method }, 'request failed unexpectedly');
  try {
    answerProblem(
      res,
      new GatewayError('INTERNAL', 'The gateway failed to answer; retry shortly.'),
      undefined,
    );
  } catch {
    res.destroy();
  }
}

/** Node's own refusals whose status is not 400 (a slow or oversized request head), as problems. */
const NODE_REFUSALS: Record<string, () => GatewayError> = {
  ERR_HTTP_REQUEST_TIMEOUT: () =>
    new GatewayError('REQUEST_TIMEOUT', 'The request head or body arrived too slowly; send it at once.'),
  HPE_HEADER_OVERFLOW: () =>
    new GatewayError('HEADERS_TOO_LARGE', 'The request headers exceed 16 KB; send fewer or shorter ones.'),
};

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * A request node:http could not parse (e.g. Content-Length beside Transfer-Encoding, bad chunking):
 * answered 400 problem+json like every other refusal instead of node's bare `400 Bad Request`, then
 * the connection is closed (nothing after an unparseable request can be trusted).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const refusal = error.code === undefined ? undefined : NODE_REFUSALS[error.code];
  const problem = refusal
    ? refusal()
    : new GatewayError(
        'MALFORMED_REQUEST',
        'The request is not valid HTTP/1.1 (check its framing headers and body).',
      );
  endWithProblem(socket, problem);
}

/** Writes a problem+json response straight to a socket node:http no longer serves, and closes it. */
function endWithProblem(socket: Duplex, problem: GatewayError): void {
  const body = JSON.stringify(problem.toProblem());
  socket.end(
    `HTTP/1.1 ${problem.status} ${REASONS[problem.status]}\r\nContent-Type: application/problem+json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A CONNECT request: node:http hands over the socket and, without this, closes it unanswered. */
export function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => {});
  endWithProblem(
    socket,
    new GatewayError('MALFORMED_REQUEST', 'CONNECT is not served here; this is not a forward proxy.'),
  );
}

/**
 * Sends every request the route table resolves to a proxied route (the data plane) to `proxied`,
 * and everything else (ops, JWKS, docs, admin, the key-management API, unknown paths) to the
 * control plane, an Express app. The route is matched once, here, and handed on.
 */
export function createGatewayListener(options: {
  routes: RouteMatcher;
  proxied: (req: IncomingMessage, res: ServerResponse, route: RouteMatch & { kind: 'proxy' }) => void;
  controlPlane: (req: IncomingMessage, res: ServerResponse) => void;
  logger: Logger;
}): GatewayListener {
  const { routes, proxied, controlPlane, logger } = options;
  const listener = ((req: IncomingMessage, res: ServerResponse) => {
    try {
      if (req.headers.host === undefined && req.httpVersionMinor === 1 && req.httpVersionMajor === 1) {
        // node:http would answer an empty 400 (RFC 9112 §3.2: HTTP/1.1 requires Host); the server
        // runs with requireHostHeader off so the refusal is problem+json like every other.
        res.shouldKeepAlive = false;
        answerProblem(
          res,
          new GatewayError('MALFORMED_REQUEST', 'HTTP/1.1 requests need a Host header.'),
          undefined,
        );
        return;
      }
      const route = routes.match(req.method ?? 'GET', pathOf(req.url ?? '/'));
      if (route?.kind === 'proxy') proxied(req, res, route);
      else controlPlane(req, res);
    } catch (error) {
      answerUnexpected(logger, req, res, error);
    }
  }) as GatewayListener;
  listener.listen = (port, host, callback) => {
    // Request timeouts are checked every second rather than every 30 s (node's default), so a
    // KEYGATE_REQUEST_TIMEOUT_MS of a few seconds means what it says.
    const server = createServer({ requireHostHeader: false, connectionsCheckingInterval: 1000 }, listener);
    server.on('clientError', answerClientError);
    server.on('connect', answerConnect);
    // node:http answers any other expectation with an empty 417.
    server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
      answerProblem(
        res,
        new GatewayError('EXPECTATION_FAILED', 'Only `Expect: 100-continue` is supported.'),
        undefined,
      );
    });
    // node:http would answer `100 Continue` at once; proxied calls get it only once their key passed.
    server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
      if (routes.match(req.method ?? 'GET', pathOf(req.url ?? '/'))?.kind === 'proxy')
        awaitingContinue.add(res);
      else res.writeContinue();
      listener(req, res);
    });
    return server.listen(port, host, callback);
  };
  return listener;
}
