import { createHash } from 'node:crypto';
import { markDeprecations } from '@keygate/contracts/gateway';
import { type Request, type Response, Router } from 'express';
import type { RouteTable } from '../routes/route-table.ts';
import { DOCS_CSS } from './docs-style.ts';
import { loadOpenApiDocument } from './load-document.ts';
import { renderDocsPage } from './render-docs.ts';

/** What the docs router serves from. */
export interface DocsRouterDeps {
  /** The OpenAPI 3.1 document to serve (KEYGATE_OPENAPI_FILE). */
  openapiFile: string;
  /** The route table, e.g. to mark deprecated operations. */
  routeTable: RouteTable;
}

/** A body answered as is, with its strong ETag. */
interface Representation {
  body: Buffer;
  etag: string;
}

function represent(text: string): Representation {
  const body = Buffer.from(text, 'utf8');
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}

/** Whether `If-None-Match` names the representation: `*`, or its ETag (weak comparison, RFC 9110 §13.1.2). */
function isHeld(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** 304 when the client already holds this representation, else the body. */
function answer(req: Request, res: Response, type: string, representation: Representation): void {
  res.setHeader('Content-Type', type);
  res.setHeader('ETag', representation.etag);
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (isHeld(req.headers['if-none-match'], representation.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Length', representation.body.length);
  res.end(req.method === 'HEAD' ? undefined : representation.body);
}

/** `default-src 'none'` and the page's one inline stylesheet, allowed by its hash. */
export function docsContentSecurityPolicy(css: string): string {
  const hash = createHash('sha256').update(css).digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/**
 * `GET /v2/openapi.json` and the reference page at `/docs`; public, mounted before the key pipeline.
 * Both are built once, here: the file is read and checked (an OpenApiFileError naming
 * KEYGATE_OPENAPI_FILE when it is missing or not an OpenAPI 3.x document), operations the route
 * table deprecates are marked, and the page is rendered from the result. Whatever document the
 * file holds is served: a team putting the gateway in front of another service brings its own.
 */
export function createDocsRouter({ openapiFile, routeTable }: DocsRouterDeps): Router {
  const loaded = loadOpenApiDocument(openapiFile);
  const document = markDeprecations(loaded.document, routeTable);
  // Unchanged, the file is served byte for byte; with deprecations marked, as compact JSON.
  const json = represent(document === loaded.document ? loaded.text : JSON.stringify(document));
  const page = represent(renderDocsPage(document, DOCS_CSS));
  const csp = docsContentSecurityPolicy(DOCS_CSS);
  const router = Router({ caseSensitive: true, strict: true });
  router.get('/v2/openapi.json', (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    answer(req, res, 'application/json; charset=utf-8', json);
  });
  router.get('/docs', (req, res) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Referrer-Policy', 'no-referrer');
    answer(req, res, 'text/html; charset=utf-8', page);
  });
  // Without this, `/docs/` (strict routing) would fall through to the key pipeline and answer 401.
  router.get('/docs/', (_req, res) => {
    res.redirect(301, '/docs');
  });
  return router;
}
