import { buildProblem, writeProblem } from '@keygate/problem';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { CommerceError, type CommerceErrorCode, ERROR_TABLE } from '../errors.ts';
import { getRequestContext } from './request-context.ts';

/** Writes a CommerceError as problem+json. */
export function writeCommerceError(res: Response, error: CommerceError): void {
  const { status, title } = ERROR_TABLE[error.code];
  writeProblem(res, buildProblem(error.code, status, title, error.message, error.extensions));
}

/** Catch-all for unknown routes: 404 ROUTE_NOT_FOUND. */
export function answerRouteNotFound(req: Request, res: Response): void {
  writeCommerceError(
    res,
    new CommerceError('ROUTE_NOT_FOUND', `No route ${req.method} ${req.originalUrl.split('?')[0]}.`),
  );
}

/** Body-parser failures that are the client's fault, by their `type`. */
const PARSER_ERRORS: Record<string, [CommerceErrorCode, string]> = {
  'entity.parse.failed': ['MALFORMED_JSON', 'The request body is not valid JSON.'],
  'entity.too.large': ['PAYLOAD_TOO_LARGE', 'The request body is too large.'],
  'encoding.unsupported': ['UNSUPPORTED_MEDIA_TYPE', 'The request body encoding is not supported.'],
  'charset.unsupported': ['UNSUPPORTED_MEDIA_TYPE', 'The request body charset is not supported; use UTF-8.'],
};

function toParserError(error: unknown): CommerceError | undefined {
  if (typeof error !== 'object' || error === null || !('type' in error)) return undefined;
  const known = typeof error.type === 'string' ? PARSER_ERRORS[error.type] : undefined;
  return known ? new CommerceError(known[0], known[1]) : undefined;
}

/** The 4xx `status` / `statusCode` Express, its router and body-parser put on client errors. */
function clientErrorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = 'status' in error ? error.status : 'statusCode' in error ? error.statusCode : undefined;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/**
 * The one error handler, registered last. Known errors answer with their code; other client
 * errors (a 4xx `status`/`statusCode`, e.g. the router's URIError for malformed percent-encoding)
 * answer 400 MALFORMED_REQUEST and are not logged as errors; anything else is logged with the
 * request id and answered 500 without details.
 */
export function handleErrors(logger: Logger) {
  return function answerError(error: unknown, req: Request, res: Response, next: NextFunction): void {
    if (res.headersSent) return next(error);
    const { log, requestId } = getRequestContext(req, logger);
    if (error instanceof CommerceError) return writeCommerceError(res, error);
    const parserError = toParserError(error);
    if (parserError) return writeCommerceError(res, parserError);
    const clientStatus = clientErrorStatus(error);
    if (clientStatus !== undefined) {
      log.info({ status: clientStatus, reason: String(error) }, 'malformed request');
      return writeCommerceError(
        res,
        new CommerceError(
          'MALFORMED_REQUEST',
          'The request cannot be parsed (for example, malformed percent-encoding in the path).',
        ),
      );
    }
    log.error({ err: error }, 'unhandled error');
    writeCommerceError(
      res,
      new CommerceError(
        'INTERNAL_ERROR',
        `Something went wrong; quote request id ${requestId} when reporting it.`,
        {
          requestId,
        },
      ),
    );
  };
}
