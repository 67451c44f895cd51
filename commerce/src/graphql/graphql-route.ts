import { requireScope } from '@keygate/identity';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { createHandler } from 'graphql-http/lib/use/express';
import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/catalog-service.ts';
import { CommerceError } from '../errors.ts';
import { getRequestContext } from '../http/request-context.ts';
import { createDocumentCache } from './document-cache.ts';
import { buildGraphqlSchema, type GraphqlContext } from './schema.ts';

/** The query of a GraphQL request: from the URL on GET, from the parsed JSON body on POST. */
function queryOf(req: Request): unknown {
  if (req.method === 'GET') return new URLSearchParams(req.url.split('?')[1] ?? '').get('query') ?? undefined;
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as { query?: unknown }).query
    : undefined;
}

/**
 * Refuses, as problem+json like every other commerce error, what graphql-http would answer with an
 * empty body or a GraphQL-shaped error although no GraphQL ran: another method (405, HEAD too), a
 * POST body that is not plain `application/json` (415, graphql-http's own media-type rule, e.g.
 * `application/json;;;`), a request without a `query` string (400). Errors of a query that did run
 * (parse, validation, resolvers) stay GraphQL responses, as GraphQL over HTTP specifies.
 */
function refuseUnrunnable(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'GET' && req.method !== 'POST') {
    res.setHeader('Allow', 'GET, POST');
    throw new CommerceError('METHOD_NOT_ALLOWED', 'GraphQL is served by GET and POST only.');
  }
  if (req.method === 'POST') {
    const [mediaType, charset = 'charset=utf-8'] = (req.headers['content-type'] ?? '')
      .replace(/\s/g, '')
      .toLowerCase()
      .split(';');
    if (mediaType !== 'application/json' || charset !== 'charset=utf-8') {
      throw new CommerceError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send GraphQL requests as `Content-Type: application/json` (UTF-8).',
      );
    }
  }
  if (typeof queryOf(req) !== 'string') {
    throw new CommerceError(
      'MALFORMED_REQUEST',
      'Send a GraphQL document as the string `query` (in the JSON body, or the URL on GET).',
    );
  }
  next();
}

/**
 * GraphQL over HTTP at /v2/graphql (GET and POST, scope article:r). The schema is built here, when
 * the app is created, from the channels in the database at that moment (the `Channel` enum): a
 * channel added later appears after a restart.
 */
export function createGraphqlRouter(deps: { catalog: CatalogService; logger: Logger }): Router {
  const documents = createDocumentCache();
  const handler = createHandler<GraphqlContext>({
    parse: documents.parse,
    validate: documents.validate,
    schema: buildGraphqlSchema(deps.catalog, deps.catalog.listChannels()),
    context: (request) => {
      const { requestId, log } = getRequestContext(request.raw, deps.logger);
      return { requestId, log };
    },
  });
  const router = Router();
  router.all('/v2/graphql', requireScope('article:r'), refuseUnrunnable, handler);
  return router;
}
