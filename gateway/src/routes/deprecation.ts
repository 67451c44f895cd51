import {
  type Deprecation,
  DeprecationSchema,
  SUPPORTED_VERSIONS,
  VERSION_SEGMENT,
} from '@keygate/contracts/gateway';

export { type Deprecation, DeprecationSchema, SUPPORTED_VERSIONS, VERSION_SEGMENT };

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
