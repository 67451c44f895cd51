import type { Environment } from '../keys/model.ts';
import { MANAGEMENT_PREFIX, type RouteTable } from './route-table.ts';

/** The scope every management route (`/v2/auth/keys…`) requires. */
export const MANAGEMENT_SCOPE = 'auth:rw';

/** A request resolved against the route table. */
export type RouteMatch =
  | {
      kind: 'proxy';
      /** `METHOD /pattern`, the label used in metrics. */
      rule: string;
      scope: string;
      upstream: string;
      audience: string;
      urls: Readonly<Record<Environment, string>>;
    }
  | { kind: 'management'; rule: 'management'; scope: typeof MANAGEMENT_SCOPE };

interface CompiledRoute {
  regex: RegExp;
  match: RouteMatch & { kind: 'proxy' };
}

export interface RouteMatcher {
  /** The route for a method and raw (undecoded, query-free) path, or null when none matches. */
  match(method: string, path: string): RouteMatch | null;
  /** Every distinct upstream URL of the table with a label such as `commerce/live`. */
  readonly upstreamTargets: ReadonlyArray<{ label: string; url: string }>;
}

const MANAGEMENT: RouteMatch = { kind: 'management', rule: 'management', scope: MANAGEMENT_SCOPE };

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `{name}` matches one segment without `/` or `:`; everything else is literal. */
function compilePattern(pattern: string): RegExp {
  const source = pattern
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/:]+' : escapeRegex(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

/** Compiles a validated route table once; matching is a method lookup plus a few regex tests. */
export function compileRoutes(table: RouteTable): RouteMatcher {
  const byMethod = new Map<string, CompiledRoute[]>();
  for (const route of table.routes) {
    const name = route.upstream ?? table.defaultUpstream;
    const upstream = table.upstreams[name]!;
    const compiled: CompiledRoute = {
      regex: compilePattern(route.path),
      match: {
        kind: 'proxy',
        rule: `${route.method} ${route.path}`,
        scope: route.scope,
        upstream: name,
        audience: upstream.audience,
        urls: Object.freeze({ live: upstream.live, test: upstream.test }),
      },
    };
    const list = byMethod.get(route.method) ?? [];
    list.push(compiled);
    byMethod.set(route.method, list);
  }
  const upstreamTargets = Object.entries(table.upstreams).flatMap(([name, upstream]) => [
    { label: `${name}/live`, url: upstream.live },
    { label: `${name}/test`, url: upstream.test },
  ]);
  return {
    upstreamTargets,
    match(method, path) {
      if (path === MANAGEMENT_PREFIX || path.startsWith(`${MANAGEMENT_PREFIX}/`)) return MANAGEMENT;
      // HEAD follows the GET rules, as Express and HTTP semantics do.
      const candidates = byMethod.get(method === 'HEAD' ? 'GET' : method) ?? [];
      for (const candidate of candidates) {
        if (candidate.regex.test(path)) return candidate.match;
      }
      return null;
    },
  };
}

const ENCODED_SEPARATOR = /%(?:2f|5c|00)/i;

/**
 * True when a raw request path is safe to match and forward unchanged: it starts with `/`, has no
 * empty, `.` or `..` segments (also percent-encoded), no encoded `/`, `\` or NUL and no backslash.
 */
export function isSafePath(path: string): boolean {
  if (!path.startsWith('/') || path.includes('\\') || ENCODED_SEPARATOR.test(path)) return false;
  const segments = path.slice(1).split('/');
  return segments.every((segment, index) => {
    if (segment === '') return index === segments.length - 1 && index > 0;
    const lowered = segment.toLowerCase().replaceAll('%2e', '.');
    return lowered !== '.' && lowered !== '..';
  });
}
