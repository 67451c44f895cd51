import { z } from 'zod';

/** A path segment naming an API version, such as `v2`. */
export const VERSION_SEGMENT = /^v\d+$/;

/** The API versions the gateway serves; the route table's paths all live under these. */
export const SUPPORTED_VERSIONS: readonly string[] = Object.freeze(['v2']);

const InstantSchema = z.iso.datetime({
  offset: true,
  error: 'must be an ISO 8601 date-time such as 2027-01-01T00:00:00Z',
});

/**
 * When a route (or a whole version) was or will be deprecated, when it stops answering (never
 * before it is deprecated) and the https page explaining the policy and the way out.
 */
export const DeprecationSchema = z
  .strictObject({
    at: InstantSchema,
    sunset: InstantSchema,
    link: z.url({ protocol: /^https$/, error: 'must be an https URL' }),
  })
  .refine((deprecation) => Date.parse(deprecation.sunset) >= Date.parse(deprecation.at), {
    path: ['sunset'],
    message: 'must not be earlier than the deprecation date (at)',
  });

export type Deprecation = z.infer<typeof DeprecationSchema>;

/** The response headers announcing one deprecation, computed once at start. */
export interface DeprecationHeaders {
  /** RFC 9745: `@<unix seconds>`. */
  readonly deprecation: string;
  /** RFC 8594: an IMF-fixdate. */
  readonly sunset: string;
  /** `<url>; rel="deprecation"` (RFC 9745), the policy link. */
  readonly link: string;
}

/** Turns a validated deprecation into its header values. */
export function compileDeprecation(deprecation: Deprecation): DeprecationHeaders {
  return Object.freeze({
    deprecation: `@${Math.floor(Date.parse(deprecation.at) / 1000)}`,
    sunset: new Date(Date.parse(deprecation.sunset)).toUTCString(),
    link: `<${new URL(deprecation.link).href}>; rel="deprecation"`,
  });
}

/**
 * The version segment of a raw path that names a version this gateway does not serve (`/v1/…`,
 * `/v3`), else null: such calls get 404 UNKNOWN_API_VERSION instead of ROUTE_NOT_FOUND.
 */
export function unsupportedVersionOf(path: string): string | null {
  const end = path.indexOf('/', 1);
  const segment = end === -1 ? path.slice(1) : path.slice(1, end);
  return VERSION_SEGMENT.test(segment) && !SUPPORTED_VERSIONS.includes(segment) ? segment : null;
}
