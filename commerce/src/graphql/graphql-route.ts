import { requireScope } from '@keygate/identity';
import type { Tracer } from '@keygate/tracing';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { execute } from 'graphql';
import { createHandler, type Request as GraphqlRequest } from 'graphql-http';
import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/catalog-service.ts';
import { CommerceError } from '../errors.ts';
import { getRequestContext } from '../http/request-context.ts';
import type { ResponseCache } from '../http/response-cache.ts';
import { traceExecute } from '../http/tracing.ts';
import { createDocumentCache } from './document-cache.ts';
import { COST_HEADER, calculateQueryCost } from './query-cost.ts';
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

/** The operation name and variables of a GraphQL request, as graphql-http reads them (null: none or unreadable). */
function operationOf(req: Request): {
  operationName: string | null;
  variables: Record<string, unknown> | null;
} {
  let fields: { operationName?: unknown; variables?: unknown } = {};
  if (req.method === 'POST') {
    fields = typeof req.body === 'object' && req.body !== null ? (req.body as typeof fields) : {};
  } else {
    const params = new URLSearchParams(req.url.split('?')[1] ?? '');
    try {
      fields = {
        operationName: params.get('operationName'),
        variables: JSON.parse(params.get('variables') ?? 'null'),
      };
    } catch {
      fields = { operationName: params.get('operationName') };
    }
  }
  const { operationName, variables } = fields;
  return {
    operationName: typeof operationName === 'string' ? operationName : null,
    variables:
      typeof variables === 'object' && variables !== null && !Array.isArray(variables)
        ? (variables as Record<string, unknown>)
        : null,
  };
}

/** graphql-http's request view of an Express request (what its Express adapter passes too). */
function toGraphqlRequest(req: Request): GraphqlRequest<Request, undefined> {
  return {
    url: req.url,
    method: req.method,
    headers: req.headers,
    body: () => {
      if (req.body) return req.body as Record<string, unknown>;
      return new Promise<string>((resolve) => {
        let body = '';
        req.setEncoding('utf-8');
        req.on('data', (chunk: string) => {
          body += chunk;
        });
        req.on('end', () => resolve(body));
      });
    },
    raw: req,
    context: undefined,
  };
}

/**
 * The cache key of a GraphQL request: every input of its answer. The document, variables and
 * operation name are in the URL (GET) or the JSON body (POST, re-serialised as parsed); `Accept`
 * picks the response's media type. The caller's key is not an input: the schema only reads the
 * catalogue, the same for every key (a `customer` argument is part of the document or variables).
 */
function graphqlKey(req: Request): string {
  const body = req.method === 'POST' ? JSON.stringify(req.body) : '';
  return `${req.method}\n${req.originalUrl}\n${req.headers.accept ?? ''}\n${body}`;
}

/**
 * GraphQL over HTTP at /v2/graphql (GET and POST, scope article:r). The schema is built here, when
 * the app is created, from the channels in the database at that moment (the `Channel` enum): a
 * channel added later appears after a restart. Successful answers without errors are kept in
 * `cache` until a write changes what their resolvers read (see response-cache.ts); errors can
 * name a request id, so an answer with any error is never kept. Every answer of a query that ran
 * (or failed to parse or validate) says what it cost in `Keygate-Cost` (see query-cost.ts): the
 * gateway charges that to the caller's credits and quotas.
 */
export function createGraphqlRouter(deps: {
  catalog: CatalogService;
  logger: Logger;
  cache: ResponseCache;
  /** With tracing on: a span per GraphQL operation. */
  tracer?: Tracer | null;
}): Router {
  const { cache, tracer } = deps;
  const documents = createDocumentCache();
  const schema = buildGraphqlSchema(deps.catalog, deps.catalog.listChannels());
  /** What each request's resolvers read, for the cache (the context is built from the request). */
  const readsOf = new WeakMap<Request, string[]>();
  const handle = createHandler<Request, undefined, GraphqlContext>({
    parse: documents.parse,
    validate: documents.validate,
    ...(tracer ? { execute: traceExecute(tracer, execute) } : {}),
    schema,
    context: (request) => {
      const { requestId, log } = getRequestContext(request.raw, deps.logger);
      return { requestId, log, dependsOn: readsOf.get(request.raw) ?? [] };
    },
  });
  /** The query's cost; 1 for a document that does not parse (its answer is an error). */
  function costOf(req: Request): string {
    try {
      const document = documents.parse(String(queryOf(req)));
      return String(calculateQueryCost(schema, document, operationOf(req)));
    } catch {
      return '1';
    }
  }
  async function serve(req: Request, res: Response, next: NextFunction): Promise<void> {
    const generation = cache.begin();
    const key = graphqlKey(req);
    const hit = cache.get(generation, key);
    if (hit) {
      res.writeHead(200, { 'content-type': hit.contentType, ...hit.headers }).end(hit.body);
      return;
    }
    try {
      const headers = { [COST_HEADER]: costOf(req) };
      const dependsOn: string[] = [];
      readsOf.set(req, dependsOn);
      const [body, init] = await handle(toGraphqlRequest(req));
      const contentType = init.headers?.['content-type'];
      if (init.status === 200 && body !== null && contentType && !body.includes('"errors"')) {
        cache.store(generation, key, { body: Buffer.from(body), contentType, etag: '', headers }, dependsOn);
      }
      res.writeHead(init.status, init.statusText, { ...init.headers, ...headers }).end(body);
    } catch (error) {
      next(error);
    }
  }
  const router = Router();
  router.all('/v2/graphql', requireScope('article:r'), refuseUnrunnable, serve);
  return router;
}
