import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { IdentitySigner } from '@keygate/identity';
import { writeProblem } from '@keygate/problem';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import { routeOf } from '../auth/steps.ts';
import { GatewayError } from '../errors.ts';
import type { GatewayMetrics } from '../ops/metrics.ts';
import { setUpstreamHeaders } from './upstream-headers.ts';

export interface UpstreamProxyOptions {
  /** Every upstream URL the route table names; one proxy middleware is built per URL, up front. */
  targets: readonly string[];
  signer: IdentitySigner;
  /** Idle time (ms) after which a silent upstream is answered with 504. */
  timeoutMs: number;
  metrics: GatewayMetrics;
  logger: Logger;
}

export interface UpstreamProxy {
  /** Proxies a request whose route is a proxied one; passes anything else on. */
  handle: RequestHandler;
  /** Closes idle upstream connections. */
  close(): void;
}

interface InFlight {
  startedAt: bigint;
  timedOut: boolean;
  upstream: string;
  environment: string;
}

/**
 * Builds one http-proxy-middleware per upstream URL with a shared keep-alive agent. No body parser
 * runs before it, so request bodies stream through untouched.
 */
export function createUpstreamProxy(options: UpstreamProxyOptions): UpstreamProxy {
  const { metrics, logger, timeoutMs } = options;
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  const inFlight = new WeakMap<IncomingMessage, InFlight>();

  const observe = (req: IncomingMessage, outcome: string) => {
    const flight = inFlight.get(req);
    if (!flight) return;
    inFlight.delete(req);
    const seconds = Number(process.hrtime.bigint() - flight.startedAt) / 1e9;
    metrics.upstreamDuration.observe(
      { upstream: flight.upstream, environment: flight.environment, outcome },
      seconds,
    );
  };

  const gatewayPlugin: Plugin<IncomingMessage, ServerResponse> = (proxyServer) => {
    proxyServer.on('proxyReq', (proxyReq, req, res) => {
      res.on('error', (error) => logger.debug({ err: error }, 'client response error'));
      proxyReq.setTimeout(timeoutMs, () => {
        const flight = inFlight.get(req);
        if (flight) flight.timedOut = true;
        proxyReq.destroy();
      });
    });
    proxyServer.on('proxyRes', (proxyRes, req, res) => {
      res.on('close', () => {
        if (!res.writableEnded) proxyRes.destroy();
      });
      proxyRes.on('end', () => observe(req, 'response'));
    });
    proxyServer.on('error', (error, req, res) => {
      if (!req || !res) {
        logger.error({ err: error }, 'proxy error without a request');
        return;
      }
      const flight = inFlight.get(req);
      const timedOut = flight?.timedOut === true;
      observe(req, timedOut ? 'timeout' : 'unavailable');
      const requestId = (res as Response).locals?.requestId as string | undefined;
      const upstream = flight?.upstream ?? 'upstream';
      logger.warn(
        { err: error, requestId, upstream },
        timedOut ? 'upstream timed out' : 'upstream unavailable',
      );
      const problem = timedOut
        ? new GatewayError(
            'UPSTREAM_TIMEOUT',
            `The ${upstream} service did not answer within ${timeoutMs} ms.`,
          )
        : new GatewayError(
            'UPSTREAM_UNAVAILABLE',
            `The ${upstream} service could not be reached; retry shortly.`,
          );
      if ('headersSent' in res && !res.headersSent) writeProblem(res, problem.toProblem(requestId));
      else res.destroy();
    });
  };

  const proxies = new Map<string, RequestHandler>();
  for (const target of new Set(options.targets)) {
    const middleware = createProxyMiddleware<IncomingMessage, ServerResponse>({
      target,
      changeOrigin: true,
      xfwd: false,
      agent,
      ejectPlugins: true,
      plugins: [gatewayPlugin],
    });
    proxies.set(target, middleware as unknown as RequestHandler);
  }

  async function proxyRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
    const route = routeOf(res);
    if (route?.kind !== 'proxy') return next();
    const principal = res.locals.principal as Principal;
    const environment = principal.key.environment;
    const url = route.urls[environment];
    const proxy = url === undefined ? undefined : proxies.get(url);
    if (!proxy) throw new Error(`no proxy built for ${route.upstream}/${environment}`);
    await setUpstreamHeaders(
      req.headers,
      principal,
      {
        method: req.method,
        path: req.originalUrl,
        host: req.headers.host,
        encrypted: (req.socket as TLSSocket).encrypted === true,
      },
      options.signer,
      route.audience,
    );
    // Forward the path exactly as received (and as signed), whatever a mount did to req.url.
    req.url = req.originalUrl;
    inFlight.set(req, {
      startedAt: process.hrtime.bigint(),
      timedOut: false,
      upstream: route.upstream,
      environment,
    });
    await proxy(req, res, next);
  }

  return { handle: proxyRequest, close: () => agent.destroy() };
}
