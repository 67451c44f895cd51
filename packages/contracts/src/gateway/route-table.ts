import { isScope } from '@keygate/identity';
import { z } from 'zod';
import { DeprecationSchema, SUPPORTED_VERSIONS, VERSION_SEGMENT } from './deprecation.ts';

/** The key-management routes the gateway answers itself; the route table may not claim them. */
export const MANAGEMENT_PREFIX = '/v2/auth/keys';

/** The alert management routes (`auth:rw`), answered by the gateway like MANAGEMENT_PREFIX. */
export const ALERT_MANAGEMENT_PREFIXES = [
  '/v2/auth/alert-endpoints',
  '/v2/auth/alert-deliveries',
  '/v2/auth/alert-events',
] as const;

/** True when `path` is `prefix`, below it, or a custom method of it (`prefix:stream`). */
export function isUnderPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}:`);
}

/** The most a route's call may cost (and the most an upstream's `Keygate-Cost` may charge). */
export const MAX_ROUTE_COST = 100_000;

/** The plans API (DESIGN.md, "Plans, quotas, credits and identities"). */
export const PLANS_PREFIX = '/v2/auth/plans';

/** The identities API. */
export const IDENTITIES_PREFIX = '/v2/auth/identities';

/** Billing usage of every identity (`/v2/auth/usage/export`). */
export const USAGE_PREFIX = '/v2/auth/usage';

/** Every prefix the gateway answers itself (keys, plans, identities, usage); the route table may claim none. */
export const MANAGEMENT_PREFIXES = [
  MANAGEMENT_PREFIX,
  PLANS_PREFIX,
  IDENTITIES_PREFIX,
  USAGE_PREFIX,
] as const;

/** True when `path` is one of the management prefixes or lies below one. */
export function isManagementPath(path: string): boolean {
  // Asked for every request: most paths leave at the first comparison.
  if (!path.startsWith('/v2/auth/')) return false;
  for (const prefix of MANAGEMENT_PREFIXES) {
    if (path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/'))
      return true;
  }
  return false;
}

export const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Literal characters allowed in a pattern segment besides `{name}` placeholders (`:` included). */
const LITERAL = "[A-Za-z0-9._~!$&'()*+,;=:@-]";

const PLACEHOLDER = '\\{[A-Za-z][A-Za-z0-9_]*\\}';

const SEGMENT_PATTERN = new RegExp(`^(?:${LITERAL}|${PLACEHOLDER})+$`);

/** True when a route pattern is `/v2/…` made of literal segments and `{name}` placeholders. */
export function isRoutePattern(path: string): boolean {
  if (!path.startsWith('/v2/')) return false;
  const segments = path.slice(1).split('/');
  return segments.every(
    (segment) =>
      SEGMENT_PATTERN.test(segment) && segment !== '.' && segment !== '..' && !/\}\{/.test(segment),
  );
}

const UpstreamUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .refine((url) => !new URL(url).search && !new URL(url).hash, 'must have no query or fragment');

/**
 * One upstream service. `live` and `test` are each optional, but one is required: a route whose
 * upstream has no URL for a key's environment answers that key 403 ENVIRONMENT_MISMATCH.
 */
export const UpstreamSchema = z
  .strictObject({
    audience: z.string().min(1),
    live: UpstreamUrlSchema.optional(),
    test: UpstreamUrlSchema.optional(),
    /**
     * The path (on the test URL) of the service's own test-data reset, if it has one: the admin
     * interface and `keygate sandbox reset` POST there with an administrator's signed identity.
     */
    sandboxReset: z
      .string()
      .refine(isRoutePattern, 'must be a path under /v2/ without placeholders')
      .refine((path) => !path.includes('{'), 'must be a path under /v2/ without placeholders')
      .optional(),
  })
  .refine((upstream) => upstream.live !== undefined || upstream.test !== undefined, {
    message: 'needs a live or a test URL (or both)',
  });

export const RouteSchema = z.strictObject({
  method: z.enum(ROUTE_METHODS),
  path: z
    .string()
    .refine(isRoutePattern, 'must start with /v2/ and hold only literal segments and {name} placeholders')
    .refine(
      (path) => !isManagementPath(path),
      `${MANAGEMENT_PREFIXES.join(', ')} are served by the gateway itself`,
    )
    .refine(
      (path) => !ALERT_MANAGEMENT_PREFIXES.some((prefix) => isUnderPrefix(path, prefix)),
      'the alert management routes are served by the gateway itself',
    ),
  scope: z.string().refine(isScope, 'must be a known scope such as article:r or order:rw'),
  upstream: z.string().min(1).optional(),
  /**
   * A long-lived answer (server-sent events): no upstream idle timeout applies to its body, and the
   * gateway ends it as soon as the key is no longer valid (revoked, expired, secret closed).
   */
  stream: z.boolean().optional(),
  /** This route alone is deprecated (overrides its version's deprecation). */
  deprecation: DeprecationSchema.optional(),
  /**
   * What a call spends of a plan's limits, quotas and credits (default 1; 0 meters nothing). An
   * upstream may answer `Keygate-Cost: N` to charge the difference after its answer.
   */
  cost: z.number().int().min(0).max(MAX_ROUTE_COST).optional(),
});

/** Settings of one API version, e.g. `"v2": {"deprecation": {…}}` deprecates every route under /v2, management included. */
export const VersionSchema = z.strictObject({
  deprecation: DeprecationSchema.optional(),
});

export const RouteTableSchema = z
  .strictObject({
    $comment: z.string().optional(),
    upstreams: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/), UpstreamSchema),
    defaultUpstream: z.string(),
    versions: z
      .record(z.string().regex(VERSION_SEGMENT, 'must be a version such as v2'), VersionSchema)
      .optional(),
    routes: z.array(RouteSchema).min(1),
  })
  .superRefine((table, ctx) => {
    for (const version of Object.keys(table.versions ?? {})) {
      if (!SUPPORTED_VERSIONS.includes(version)) {
        ctx.addIssue({
          code: 'custom',
          path: ['versions', version],
          message: `is not served (supported: ${SUPPORTED_VERSIONS.join(', ')})`,
        });
      }
    }
    if (!(table.defaultUpstream in table.upstreams)) {
      ctx.addIssue({ code: 'custom', path: ['defaultUpstream'], message: 'names no upstream' });
    }
    const seen = new Set<string>();
    table.routes.forEach((route, index) => {
      const upstream = route.upstream ?? table.defaultUpstream;
      if (!(upstream in table.upstreams)) {
        ctx.addIssue({
          code: 'custom',
          path: ['routes', index, 'upstream'],
          message: `no upstream "${upstream}"`,
        });
      }
      const shape = `${route.method} ${route.path.replace(/\{[^}]+\}/g, '{}')}`;
      if (seen.has(shape)) {
        ctx.addIssue({
          code: 'custom',
          path: ['routes', index, 'path'],
          message: `duplicate route ${shape}`,
        });
      }
      seen.add(shape);
    });
  });

export type Upstream = z.infer<typeof UpstreamSchema>;

export type ApiVersion = z.infer<typeof VersionSchema>;

export type RouteEntry = z.infer<typeof RouteSchema>;

export type RouteTable = z.infer<typeof RouteTableSchema>;
