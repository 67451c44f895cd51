import { asNode, type Node } from './document-node.ts';
import type { RouteTable } from './route-table.ts';

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
