import { STATUS_CODES } from 'node:http';
import { type CommerceErrorCode, ERROR_TABLE } from '@keygate/contracts/commerce';
import { ERRORS, type ErrorCode } from '@keygate/contracts/gateway';
import { PROBLEM_CONTENT_TYPE, problemType } from '@keygate/problem';
import type { JsonSchema } from './json-schema.ts';

/** Which service answers a problem code (a code both use shares one `type` URI). */
export type ProblemSource = 'gateway' | 'commerce';

/** One problem type of the API, as listed in `x-problem-types`. */
export interface ProblemTypeEntry {
  type: string;
  code: string;
  status: number;
  title: string;
  sources: ProblemSource[];
}

/** Codes an operation may answer with, per service error table. */
export interface ErrorRefs {
  gateway?: readonly ErrorCode[];
  commerce?: readonly CommerceErrorCode[];
}

/** The gateway's codes an integrator can receive: its table without the admin interface's own codes. */
export function integratorGatewayErrors(): Record<string, { status: number; title: string }> {
  return Object.fromEntries(Object.entries(ERRORS).filter(([, spec]) => spec.surface !== 'admin'));
}

/**
 * Every integrator-facing problem type of both error tables, merged by code and sorted by status
 * then code. A code in both tables must have the same status in both, since it names one `type` URI.
 */
export function listProblemTypes(): ProblemTypeEntry[] {
  const byCode = new Map<string, ProblemTypeEntry>();
  const tables: Array<[ProblemSource, Record<string, { status: number; title: string }>]> = [
    ['gateway', integratorGatewayErrors()],
    ['commerce', ERROR_TABLE],
  ];
  for (const [source, table] of tables) {
    for (const [code, { status, title }] of Object.entries(table)) {
      const known = byCode.get(code);
      if (known && known.status !== status) {
        throw new Error(`${code} is ${known.status} in one error table and ${status} in the other`);
      }
      if (known) known.sources.push(source);
      else byCode.set(code, { type: problemType(code), code, status, title, sources: [source] });
    }
  }
  return [...byCode.values()].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/** The problem types `refs` name, deduplicated; throws for a code no table has. */
export function resolveErrors(refs: ErrorRefs): ProblemTypeEntry[] {
  const all = new Map(listProblemTypes().map((entry) => [entry.code, entry]));
  const codes = new Set<string>([...(refs.gateway ?? []), ...(refs.commerce ?? [])]);
  return [...codes].map((code) => {
    const entry = all.get(code);
    if (!entry) throw new Error(`unknown problem code ${code}`);
    return entry;
  });
}

/** `components.responses` name of a status: 404 → `NotFound`, 422 → `UnprocessableEntity`. */
export function responseNameOf(status: number): string {
  const phrase = STATUS_CODES[status];
  if (!phrase) throw new Error(`no reason phrase for ${status}`);
  return phrase.replace(/[^A-Za-z ]/g, '').replace(/(?:^| )(\w)/g, (_m, c: string) => c.toUpperCase());
}

/** The problem schemas under `components.schemas`. */
export function problemSchemas(): Record<string, JsonSchema> {
  return {
    Problem: {
      type: 'object',
      description:
        'RFC 9457 problem details (`application/problem+json`). `type` names the problem (see `x-problem-types`); extension members such as `requiredScope` or `retryAfter` add facts. Clients ignore members they do not know.',
      properties: {
        type: { type: 'string', format: 'uri', description: 'https://keygate.dev/problems/<kebab-code>' },
        title: { type: 'string' },
        status: { type: 'integer', minimum: 400, maximum: 599 },
        detail: { type: 'string', description: 'What went wrong and what to do, for a person.' },
        code: { type: 'string', description: 'The stable UPPER_SNAKE code the `type` URI is made from.' },
        instance: {
          type: 'string',
          description: 'The gateway request id (`req_…`) when the gateway answered.',
        },
        requiredScope: { type: 'string', description: 'INSUFFICIENT_SCOPE: the scope the call needs.' },
        retryAfter: {
          type: 'integer',
          minimum: 1,
          description: 'RATE_LIMITED, IDEMPOTENCY_KEY_IN_USE: seconds to wait.',
        },
        errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } },
      },
      required: ['type', 'title', 'status', 'detail', 'code'],
    },
    FieldError: {
      type: 'object',
      properties: {
        detail: { type: 'string' },
        pointer: {
          type: 'string',
          description: 'JSON pointer: into the body (`/qty`), or rooted at `/query`, `/headers`, `/params`.',
        },
      },
      required: ['detail', 'pointer'],
    },
    ValidationProblem: {
      description: 'A problem that lists each invalid field (VALIDATION_FAILED, UNKNOWN_EVENT_TYPE).',
      allOf: [
        { $ref: '#/components/schemas/Problem' },
        {
          type: 'object',
          properties: {
            errors: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/FieldError' } },
          },
          required: ['errors'],
        },
      ],
    },
  };
}

/**
 * Headers every problem of a status always carries (names of `components.headers`): the Bearer
 * challenge on 401 (every integrator 401 is about the API key), the rate-limit headers on 429
 * (RATE_LIMITED and TOO_MANY_CONCURRENT_REQUESTS, both answered after the rate-limit step that sets them).
 */
function problemHeadersOf(status: number): string[] {
  if (status === 401) return ['WWW-Authenticate', 'X-Request-Id'];
  if (status === 429) return ['Retry-After', 'RateLimit-Policy', 'RateLimit', 'X-Request-Id'];
  return ['X-Request-Id'];
}

/** Which problems of a status carry `Retry-After`: VERIFICATION_BUSY (503), IDEMPOTENCY_KEY_IN_USE (409). */
const OPTIONAL_RETRY_AFTER: Record<number, string> = {
  503: 'VERIFICATION_BUSY',
  409: 'IDEMPOTENCY_KEY_IN_USE',
};

/** Headers only some problems of a status carry: `Retry-After` (see OPTIONAL_RETRY_AFTER). */
function optionalProblemHeadersOf(status: number): Record<string, JsonSchema> {
  const code = OPTIONAL_RETRY_AFTER[status];
  if (!code) return {};
  return {
    'Retry-After': {
      required: false,
      description: `Seconds to wait before retrying; sent with ${code}.`,
      schema: { type: 'integer', minimum: 1 },
    },
  };
}

function describeEntries(entries: readonly ProblemTypeEntry[]): string {
  return entries.map((entry) => `- \`${entry.code}\`: ${entry.title}`).join('\n');
}

const PROBLEM_SCHEMA = { $ref: '#/components/schemas/Problem' };
const VALIDATION_SCHEMA = { anyOf: [{ $ref: '#/components/schemas/ValidationProblem' }, PROBLEM_SCHEMA] };

/** The 429 codes answered after the rate-limit step, so with its headers. */
const AFTER_RATE_LIMIT = new Set([
  'RATE_LIMITED',
  'QUOTA_EXCEEDED',
  'CREDITS_EXHAUSTED',
  'TOO_MANY_CONCURRENT_REQUESTS',
]);

/** The `components.responses` entry of a status: every problem type of it, its headers and schema. */
export function problemResponseOf(status: number): JsonSchema {
  const entries = listProblemTypes().filter((entry) => entry.status === status);
  const unlimited = status === 429 ? entries.filter((entry) => !AFTER_RATE_LIMIT.has(entry.code)) : [];
  if (unlimited.length > 0) {
    throw new Error(
      `429 ${unlimited[0]?.code} would be documented with rate-limit headers it does not carry`,
    );
  }
  return {
    description: `${STATUS_CODES[status]}. Problem types:\n${describeEntries(entries)}`,
    headers: {
      ...Object.fromEntries(
        problemHeadersOf(status).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
      ),
      ...optionalProblemHeadersOf(status),
    },
    content: { [PROBLEM_CONTENT_TYPE]: { schema: status === 422 ? VALIDATION_SCHEMA : PROBLEM_SCHEMA } },
    'x-problem-types': entries.map((entry) => entry.type),
  };
}

/** One `components.responses` entry per status any table uses. */
export function problemResponses(): Record<string, JsonSchema> {
  const statuses = [...new Set(listProblemTypes().map((entry) => entry.status))].sort((a, b) => a - b);
  return Object.fromEntries(statuses.map((status) => [responseNameOf(status), problemResponseOf(status)]));
}

/** The operation's error responses: a `$ref` per status with the codes this operation answers. */
export function operationErrorResponses(entries: readonly ProblemTypeEntry[]): Record<string, JsonSchema> {
  const byStatus = Map.groupBy(entries, (entry) => entry.status);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          $ref: `#/components/responses/${responseNameOf(status)}`,
          description: `${STATUS_CODES[status]}:\n${describeEntries(list)}`,
        },
      ]),
  );
}
