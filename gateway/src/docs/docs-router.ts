import { Router } from 'express';
import type { RouteTable } from '../routes/route-table.ts';

export interface DocsRouterDeps {
  /** The OpenAPI 3.1 document to serve (KEYGATE_OPENAPI_FILE). */
  openapiFile: string;
  /** The route table, e.g. to mark deprecated operations. */
  routeTable: RouteTable;
}

/** `GET /v2/openapi.json` and the reference page at `/docs`; public, mounted before the key pipeline. */
export function createDocsRouter(_deps: DocsRouterDeps): Router {
  return Router({ caseSensitive: true });
}
