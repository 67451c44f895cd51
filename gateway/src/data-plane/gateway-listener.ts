import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
      const route = routes.match(req.method ?? 'GET', pathOf(req.url ?? '/'));
      if (route?.kind === 'proxy') proxied(req, res, route);
      else controlPlane(req, res);
    } catch (error) {
      answerUnexpected(logger, req, res, error);
    }
  }) as GatewayListener;
  listener.listen = (port, host, callback) => {
    const server = createServer(listener);
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
