import {
  type ApiVersion,
  IDENTITIES_PREFIX,
  isManagementPath,
  isRoutePattern,
  MANAGEMENT_PREFIX,
  MANAGEMENT_PREFIXES,
  PLANS_PREFIX,
  ROUTE_METHODS,
  type RouteEntry,
  RouteSchema,
  type RouteTable,
  RouteTableSchema,
  type Upstream,
  UpstreamSchema,
  USAGE_PREFIX,
  VersionSchema,
} from '@keygate/contracts/gateway';

export {
  type ApiVersion,
  IDENTITIES_PREFIX,
  isManagementPath,
  isRoutePattern,
  MANAGEMENT_PREFIX,
  MANAGEMENT_PREFIXES,
  PLANS_PREFIX,
  ROUTE_METHODS,
  type RouteEntry,
  RouteSchema,
  type RouteTable,
  RouteTableSchema,
  type Upstream,
  UpstreamSchema,
  USAGE_PREFIX,
  VersionSchema,
};

/** The env var that overrides one upstream's URL, e.g. `KEYGATE_UPSTREAM_COMMERCE_LIVE`. */
export function upstreamOverrideVar(name: string, environment: 'live' | 'test'): string {
  return `KEYGATE_UPSTREAM_${name.toUpperCase().replaceAll('-', '_')}_${environment.toUpperCase()}`;
}

const DEFAULT_UPSTREAM_OVERRIDES = { live: 'KEYGATE_UPSTREAM_LIVE', test: 'KEYGATE_UPSTREAM_TEST' } as const;

/**
 * Applies URL overrides to a parsed table: `KEYGATE_UPSTREAM_<NAME>_<ENV>` for any upstream, and
 * `KEYGATE_UPSTREAM_LIVE` / `KEYGATE_UPSTREAM_TEST` for the default upstream (the specific one wins).
 * An override may also give an upstream the URL of an environment its file entry leaves out.
 */
export function applyUpstreamOverrides(
  table: RouteTable,
  env: Record<string, string | undefined>,
): Record<string, unknown> {
  const upstreams: Record<string, unknown> = {};
  for (const [name, upstream] of Object.entries(table.upstreams)) {
    const isDefault = name === table.defaultUpstream;
    const urlOf = (environment: 'live' | 'test') =>
      env[upstreamOverrideVar(name, environment)] ??
      (isDefault ? env[DEFAULT_UPSTREAM_OVERRIDES[environment]] : undefined) ??
      upstream[environment];
    const live = urlOf('live');
    const test = urlOf('test');
    upstreams[name] = {
      audience: upstream.audience,
      ...(upstream.sandboxReset === undefined ? {} : { sandboxReset: upstream.sandboxReset }),
      ...(live === undefined ? {} : { live }),
      ...(test === undefined ? {} : { test }),
    };
  }
  return { ...table, upstreams };
}
