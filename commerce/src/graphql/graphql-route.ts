import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import { createHandler } from 'graphql-http/lib/use/express';
import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/catalog-service.ts';
import { getRequestContext } from '../http/request-context.ts';
import { createDocumentCache } from './document-cache.ts';
import { buildGraphqlSchema, type GraphqlContext } from './schema.ts';

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
  router.all('/v2/graphql', requireScope('article:r'), handler);
  return router;
}
