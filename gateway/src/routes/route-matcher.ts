import { ALERT_MANAGEMENT_PREFIXES, isUnderPrefix, MANAGEMENT_SCOPE } from '@keygate/contracts/gateway';
import type { Environment } from '../model/model.ts';
import { compileDeprecation, type Deprecation, type DeprecationHeaders } from './deprecation.ts';
import { isManagementPath, MANAGEMENT_PREFIX, type RouteTable, type Upstream } from './route-table.ts';

export { MANAGEMENT_SCOPE };

/** A request resolved against the route table. */
export type RouteMatch =
  | {
      kind: 'proxy';
      /** `METHOD /pattern`, the label used in metrics. */
      rule: string;
      scope: string;
      upstream: string;
      audience: string;
      /** The upstream URL per environment; a missing one means the route is not available to such keys. */
      urls: Readonly<Partial<Record<Environment, string>>>;
      /** Present only on a deprecated route (its own deprecation, else its version's). */
      deprecation?: DeprecationHeaders;
      /** A long-lived answer (server-sent events): see `stream` in route-table.ts. */
      stream?: true;
      /** What a call spends of its key's budget (`cost` in the route table, default 1). */
      cost: number;
    }
  | {
      kind: 'management';
      rule: 'management';
      scope: typeof MANAGEMENT_SCOPE;
      /** Present only while the management routes' version is deprecated. */
      deprecation?: DeprecationHeaders;
    };

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

/** The match of every management path. */
export const MANAGEMENT_ROUTE: RouteMatch = Object.freeze({
  kind: 'management',
  rule: 'management',
  scope: MANAGEMENT_SCOPE,
});

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

/** The URLs an upstream has, without entries for environments it leaves out. */
function urlsOf(upstream: Upstream): Partial<Record<Environment, string>> {
  const urls: Partial<Record<Environment, string>> = {};
  if (upstream.live !== undefined) urls.live = upstream.live;
  if (upstream.test !== undefined) urls.test = upstream.test;
  return urls;
}

/** `{deprecation}` when there is one, else nothing: undeprecated matches carry no such member at all. */
function deprecationMember(deprecation: Deprecation | undefined): { deprecation?: DeprecationHeaders } {
  return deprecation ? { deprecation: compileDeprecation(deprecation) } : {};
}

/** The version segment of a `/vN/…` pattern. */
function versionOf(path: string): string {
  return path.slice(1, path.indexOf('/', 1));
}

/**
 * Compiles a validated route table once; matching is a method lookup plus a few regex tests.
 * Deprecation header values are computed here, once, never per request.
 */
export function compileRoutes(table: RouteTable): RouteMatcher {
  const byMethod = new Map<string, CompiledRoute[]>();
  const versionDeprecation = (path: string) => table.versions?.[versionOf(path)]?.deprecation;
  for (const route of table.routes) {
    const name = route.upstream ?? table.defaultUpstream;
    const upstream = table.upstreams[name]!;
    const compiled: CompiledRoute = {
      regex: compilePattern(route.path),
      match: Object.freeze({
        kind: 'proxy',
        rule: `${route.method} ${route.path}`,
        scope: route.scope,
        upstream: name,
        audience: upstream.audience,
        urls: Object.freeze(urlsOf(upstream)),
        ...deprecationMember(route.deprecation ?? versionDeprecation(route.path)),
        ...(route.stream ? { stream: true as const } : {}),
        cost: route.cost ?? 1,
      }),
    };
    const list = byMethod.get(route.method) ?? [];
    list.push(compiled);
    byMethod.set(route.method, list);
  }
  const upstreamTargets = Object.entries(table.upstreams).flatMap(([name, upstream]) =>
    Object.entries(urlsOf(upstream)).map(([environment, url]) => ({ label: `${name}/${environment}`, url })),
  );
  const managementDeprecation = versionDeprecation(MANAGEMENT_PREFIX);
  const management: RouteMatch = managementDeprecation
    ? Object.freeze({ ...MANAGEMENT_ROUTE, ...deprecationMember(managementDeprecation) })
    : MANAGEMENT_ROUTE;
  return {
    upstreamTargets,
    match(method, path) {
      if (isManagementPath(path)) return management;
      if (ALERT_MANAGEMENT_PREFIXES.some((prefix) => isUnderPrefix(path, prefix))) return management;
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
  if (!path.startsWith('/') || path.includes('\\')) return false;
  // The common case, checked without splitting: no escapes, no dot segment, no empty segment.
  if (path.length > 1 && !path.includes('%') && !path.includes('/.') && !path.includes('//')) return true;
  if (ENCODED_SEPARATOR.test(path)) return false;
  const segments = path.slice(1).split('/');
  return segments.every((segment, index) => {
    if (segment === '') return index === segments.length - 1 && index > 0;
    const lowered = segment.toLowerCase().replaceAll('%2e', '.');
    return lowered !== '.' && lowered !== '..';
  });
}

/** Per ASCII code, 1 for what RFC 3986 allows unescaped in a path: pchar, `/`, and `%` (escapes checked apart). */
const PATH_CHARACTERS = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/%") {
  PATH_CHARACTERS[char.charCodeAt(0)] = 1;
}

/**
 * True when a raw path holds only RFC 3986 path characters: no `#` (a fragment an upstream would
 * cut off, routing on less than the gateway matched), no space, quote, brace, bracket or non-ASCII.
 */
export function hasOnlyPathCharacters(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code > 127 || PATH_CHARACTERS[code] === 0) return false;
  }
  return true;
}
