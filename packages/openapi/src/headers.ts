import { EXPIRY_HEADER, RATE_LIMIT_WINDOW_SECONDS } from '@keygate/contracts/gateway';
import type { JsonSchema } from './json-schema.ts';

/** Headers on every response the gateway let through its key pipeline (2xx and upstream errors). */
export const SUCCESS_HEADERS = ['RateLimit-Policy', 'RateLimit', 'X-Request-Id'] as const;

/** Headers that may appear on such responses: expiry notice and deprecation of the route. */
export const OPTIONAL_HEADERS = [EXPIRY_HEADER, 'Deprecation', 'Sunset', 'Link'] as const;

const string = { type: 'string' };

/** `components.headers`: what the gateway sends, as the pipeline writes it. */
export function headerComponents(): Record<string, JsonSchema> {
  return {
    'RateLimit-Policy': {
      required: true,
      description: `The key's quota (IETF draft-ietf-httpapi-ratelimit-headers): \`"per-key";q=<calls>;w=${RATE_LIMIT_WINDOW_SECONDS}\`. The budget is shared by all secrets of a key.`,
      schema: { ...string, pattern: '^"per-key";q=\\d+;w=\\d+$' },
      example: `"per-key";q=600;w=${RATE_LIMIT_WINDOW_SECONDS}`,
    },
    RateLimit: {
      required: true,
      description: 'What is left: `"per-key";r=<remaining>;t=<seconds until the window resets>`.',
      schema: { ...string, pattern: '^"per-key";r=\\d+;t=\\d+$' },
      example: '"per-key";r=597;t=42',
    },
    'Retry-After': {
      required: true,
      description: 'Seconds to wait before retrying (at least 1). Takes precedence over `RateLimit`.',
      schema: { type: 'integer', minimum: 1 },
    },
    'X-Request-Id': {
      required: true,
      description:
        'The gateway request id (`req_…`); quote it when reporting a problem. A client-sent X-Request-Id is only logged.',
      schema: { ...string, pattern: '^req_' },
    },
    'WWW-Authenticate': {
      required: true,
      description: '`Bearer realm="keygate"`, with `error="invalid_token"` when a key was sent (RFC 6750).',
      schema: string,
    },
    Location: { required: true, description: 'The path of the created resource.', schema: string },
    ETag: {
      required: true,
      description: 'A strong validator of the representation; send it back as `If-None-Match` to get 304.',
      schema: string,
    },
    [EXPIRY_HEADER]: {
      required: false,
      description:
        'Sent while the key is close to its expiry: `<last valid day YYYY-MM-DD>; days-left=<n>` (1 on the last day).',
      schema: { ...string, pattern: '^\\d{4}-\\d{2}-\\d{2}; days-left=\\d+$' },
    },
    Deprecation: {
      required: false,
      description: 'RFC 9745: the route is deprecated since this instant, `@<unix seconds>`.',
      schema: { ...string, pattern: '^@\\d+$' },
    },
    Sunset: {
      required: false,
      description: 'RFC 8594: the HTTP date after which the deprecated route may stop answering.',
      schema: string,
    },
    Link: {
      required: false,
      description: 'On deprecated routes: `<…>; rel="deprecation"`, the deprecation policy.',
      schema: string,
    },
  };
}

/** Header references for a response. */
export function headerRefs(names: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}
