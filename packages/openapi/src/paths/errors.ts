import type { CommerceErrorCode } from '@keygate/contracts/commerce';
import type { ErrorCode } from '@keygate/contracts/gateway';
import type { ErrorRefs } from '../problems.ts';

/** What the key pipeline can refuse any call with, before a route is served. */
const PIPELINE_ERRORS: readonly ErrorCode[] = [
  'MALFORMED_REQUEST',
  'MISSING_KEY',
  'MALFORMED_KEY',
  'UNKNOWN_KEY',
  'KEY_REVOKED',
  'SECRET_CLOSED',
  'KEY_EXPIRED',
  'INSUFFICIENT_SCOPE',
  'IP_NOT_ALLOWED',
  'RATE_LIMITED',
  'STORE_UNAVAILABLE',
  'VERIFICATION_BUSY',
  'INTERNAL',
];

/** Refusals of a request body before validation, by the commerce service. */
const COMMERCE_BODY_ERRORS: readonly CommerceErrorCode[] = [
  'MALFORMED_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'VALIDATION_FAILED',
];

/** Errors of a call the gateway proxies to commerce: the pipeline's, the proxy's and the route's own. */
export function proxiedErrors(
  own: readonly CommerceErrorCode[],
  options: { body?: boolean } = {},
): ErrorRefs {
  return {
    gateway: [
      ...PIPELINE_ERRORS,
      'ENVIRONMENT_MISMATCH',
      'TOO_MANY_CONCURRENT_REQUESTS',
      'REQUEST_TIMEOUT',
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_TIMEOUT',
    ],
    commerce: [...(options.body ? COMMERCE_BODY_ERRORS : []), ...own, 'INTERNAL_ERROR'],
  };
}

/** Errors of a key-management call the gateway answers itself. */
export function managementErrors(own: readonly ErrorCode[], options: { body?: boolean } = {}): ErrorRefs {
  const body: readonly ErrorCode[] = options.body ? ['MALFORMED_BODY', 'PAYLOAD_TOO_LARGE'] : [];
  return { gateway: [...PIPELINE_ERRORS, ...body, ...own] };
}
