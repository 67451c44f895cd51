import type { IncomingMessage } from 'node:http';
import type { Span } from '@keygate/tracing';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { createRandomId } from '../ids.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What every handler can know about its request: the request id and a logger bound to it. */
export interface RequestContext {
  requestId: string;
  log: Logger;
}

const contexts = new WeakMap<IncomingMessage, RequestContext>();

/** The context `trackRequests` attached; a fallback context for requests it never saw. */
export function getRequestContext(req: IncomingMessage, fallback: Logger): RequestContext {
  return contexts.get(req) ?? { requestId: 'unknown', log: fallback };
}

/**
 * Middleware factory: takes the request id from `X-Request-Id` (the gateway sends it) when it is
 * a safe token, else generates `req_…`; echoes it; logs one line per request when it finishes.
 * Never logs headers, so assertions and tokens stay out of the logs.
 */
export function trackRequests(logger: Logger, spanOf?: (req: IncomingMessage) => Span | undefined) {
  return function trackRequest(req: Request, res: Response, next: NextFunction): void {
    const header = req.headers[REQUEST_ID_HEADER];
    const requestId =
      typeof header === 'string' && SAFE_REQUEST_ID.test(header) ? header : createRandomId('req');
    const span = spanOf?.(req)?.spanContext();
    // Every line of the request names its trace (tracing on), so logs and traces join on trace_id.
    const log = logger.child(
      span === undefined ? { requestId } : { requestId, trace_id: span.traceId, span_id: span.spanId },
    );
    contexts.set(req, { requestId, log });
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        {
          method: req.method,
          // originalUrl: a middleware mounted on /v2 may answer while req.path is shortened.
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
        },
        'request completed',
      );
    });
    next();
  };
}
