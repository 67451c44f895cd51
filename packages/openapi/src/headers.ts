import { EXPIRY_HEADER, RATE_LIMIT_WINDOW_SECONDS } from '@keygate/contracts/gateway';
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_RETENTION_MS,
  IDEMPOTENT_REPLAYED_HEADER,
} from '@keygate/contracts/idempotency';
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
      description: `Every policy that applies (IETF draft-ietf-httpapi-ratelimit-headers): the key's own limit first, \`"per-key";q=<calls>;w=${RATE_LIMIT_WINDOW_SECONDS}\` (shared by all secrets of a key), then each limit and quota of its plan, named (\`"minute";q=100;w=60, "month";q=10000;w=2592000\`).`,
      schema: { ...string, pattern: '^"per-key";q=\\d+;w=\\d+(, "[a-z][a-z0-9_-]*";q=\\d+;w=\\d+)*$' },
      example: `"per-key";q=600;w=${RATE_LIMIT_WINDOW_SECONDS}, "day";q=1000;w=86400`,
    },
    RateLimit: {
      required: true,
      description:
        'What is left of each policy, in the same order: `"<name>";r=<remaining>;t=<seconds until it resets>`.',
      schema: { ...string, pattern: '^"per-key";r=\\d+;t=\\d+(, "[a-z][a-z0-9_-]*";r=\\d+;t=\\d+)*$' },
      example: '"per-key";r=597;t=42, "day";r=871;t=40222',
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
    [IDEMPOTENT_REPLAYED_HEADER]: {
      required: false,
      description:
        '`true` when this is the kept answer of an earlier request with the same `Idempotency-Key`, replayed: nothing ran again.',
      schema: { type: 'string', enum: ['true'] },
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

/** `components.parameters`: the one `Idempotency-Key` every POST and PATCH that changes something refers to. */
export function parameterComponents(): Record<string, JsonSchema> {
  const hours = IDEMPOTENCY_RETENTION_MS / 3_600_000;
  return {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: `A unique value per intended change (e.g. a UUIDv4), sent unchanged with every retry of it: the first answer is kept ${hours} hours and replayed with \`Idempotent-Replayed: true\` instead of running again. At most ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters.`,
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
        pattern: '^[\\x21-\\x7E]+$',
      },
      example: '8e0f2b6c-3f0e-4b8a-9d7c-2a1f5c4e6b90',
    },
  };
}
