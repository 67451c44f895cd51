import { readFileSync } from 'node:fs';
import type { RouteTable } from '../routes/route-table.ts';
import { asNode, type Node } from './render-schema.ts';

/** Thrown when the configured OpenAPI file cannot be served; its message is one line for the operator. */
export class OpenApiFileError extends Error {
  constructor(file: string, reason: string) {
    super(`KEYGATE_OPENAPI_FILE=${file}: ${reason}`);
    this.name = 'OpenApiFileError';
  }
}

/** Reads and checks the OpenAPI document: a JSON object with `openapi: 3.x`, `info` and `paths` or `webhooks`. */
export function loadOpenApiDocument(file: string): { document: Node; text: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new OpenApiFileError(file, `cannot read the OpenAPI document (${code})`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new OpenApiFileError(file, 'not valid JSON');
  }
  const node = asNode(document);
  if (typeof node.openapi !== 'string' || !node.openapi.startsWith('3.')) {
    throw new OpenApiFileError(file, 'not an OpenAPI 3.x document (no "openapi": "3.…" member)');
  }
  if (typeof asNode(node.info).title !== 'string' || !(node.paths || node.webhooks)) {
    throw new OpenApiFileError(file, 'an OpenAPI document needs info.title and paths or webhooks');
  }
  return { document: node, text };
}

/** What the versioning part of the route table may say about a route or a version (optional there). */
interface Deprecatable {
  deprecation?: { at: string; sunset: string; link: string };
}

/** The part of a route table deprecations are read from; a RouteTable is one. */
interface DeprecatableTable {
  versions?: Record<string, Deprecatable>;
  routes: ReadonlyArray<{ method: string; path: string } & Deprecatable>;
}

/**
 * The document with `deprecated: true` (and `x-deprecation`) on every operation the route table
 * deprecates, by route or by its version (`/v2/…` for a `v2` deprecation); the same object when
 * nothing is deprecated.
 */
export function markDeprecations(document: Node, table: RouteTable): Node {
  const view: DeprecatableTable = table;
  const { versions = {}, routes } = view;
  const byRoute = new Map(
    routes.filter((r) => r.deprecation).map((r) => [`${r.method} ${r.path}`, r.deprecation]),
  );
  const versionOf = (path: string) => versions[path.split('/')[1] ?? '']?.deprecation;
  if (byRoute.size === 0 && !Object.values(versions).some((version) => version.deprecation)) return document;
  const marked = structuredClone(document);
  for (const [path, item] of Object.entries(asNode(marked.paths))) {
    for (const [method, operation] of Object.entries(asNode(item))) {
      const deprecation = byRoute.get(`${method.toUpperCase()} ${path}`) ?? versionOf(path);
      if (!deprecation || typeof operation !== 'object' || operation === null) continue;
      Object.assign(operation, { deprecated: true, 'x-deprecation': deprecation });
    }
  }
  return marked;
}
