import express, { type NextFunction, type Request, type Response } from 'express';
import { GatewayError } from '../errors.ts';

/** Largest JSON body the key-management API accepts. */
export const BODY_LIMIT = '16kb';

/** The bodies' exact bytes, for the Idempotency-Key fingerprint. */
const rawBodies = new WeakMap<Request, Buffer>();

/** The exact bytes of a body parseJsonBody read (empty when there was none). */
export function rawBodyOf(req: Request): Buffer {
  return rawBodies.get(req) ?? Buffer.alloc(0);
}

const parseJson = express.json({
  limit: BODY_LIMIT,
  verify: (req, _res, body) => {
    rawBodies.set(req as Request, body);
  },
});

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Parses a JSON body (≤ 16 kB) and turns parser failures into GatewayErrors: malformed JSON or a
 * non-JSON body → 400 MALFORMED_BODY, too large → 413 PAYLOAD_TOO_LARGE. No body → `{}`.
 */
export function parseJsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!hasBody(req)) {
    req.body = {};
    next();
    return;
  }
  if (!req.is('application/json')) {
    next(new GatewayError('MALFORMED_BODY', 'Send the request body as application/json.'));
    return;
  }
  parseJson(req, res, (error?: unknown) => {
    if (!error) return next();
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') {
      return next(new GatewayError('PAYLOAD_TOO_LARGE', `The request body exceeds ${BODY_LIMIT}.`));
    }
    next(new GatewayError('MALFORMED_BODY', 'The request body is not valid JSON.'));
  });
}
