import { IDEMPOTENT_REPLAYED_HEADER } from '@keygate/contracts/idempotency';
import type { z } from 'zod';
import { headerRefs, OPTIONAL_HEADERS, SUCCESS_HEADERS } from './headers.ts';
import { type JsonSchema, refTo, toInputSchema } from './json-schema.ts';
import {
  type ErrorRefs,
  operationErrorResponses,
  type ProblemTypeEntry,
  problemResponseOf,
  resolveErrors,
} from './problems.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who answers an operation: the gateway itself, the upstream behind it, or nobody's key (public). */
export type OperationKind = 'management' | 'proxied' | 'public';

/** One documented operation, as the area modules under paths/ declare it. */
export interface OperationSpec {
  method: HttpMethod;
  /** The path pattern exactly as the route table writes it, e.g. `/v2/carts/{id}:checkout`. */
  path: string;
  /** camelCase verb-noun, stable: the typed client is generated from it. */
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  kind: OperationKind;
  /** Path parameters; by default every `{name}` is a required string described by `pathDescriptions`. */
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  /** A registered request component; `required: false` when the body may be left out. */
  body?: { schema: z.ZodType; required: boolean };
  success: {
    status: number;
    description: string;
    /** A registered response component; none for 204. */
    schema?: z.ZodType;
    /** Default application/json. */
    contentTypes?: readonly string[];
    /** True when the response carries `Location` (201). */
    location?: boolean;
  };
  errors: ErrorRefs;
  /** A POST that changes nothing (GraphQL queries): no `Idempotency-Key`, since retrying it is safe. */
  safe?: boolean;
  /** Answers with a strong `ETag` and 304 to a matching `If-None-Match` (public operations always do). */
  cacheable?: boolean;
  /**
   * Answers of a status that are not problems (e.g. GraphQL's own 400 body): documented beside
   * the problem+json of the same status, if any.
   */
  otherErrors?: ReadonlyArray<{
    status: number;
    description: string;
    schema: z.ZodType;
    contentTypes: readonly string[];
  }>;
}

/** What the builder knows about an operation besides its spec. */
export interface OperationContext {
  /** The scope the route table (or the management prefix) requires; null for a public operation. */
  scope: string | null;
}

/** What `{id}` names, by the collection segment before it. */
const ID_DESCRIPTIONS: Record<string, string> = {
  keys: 'The API key id (`key_…`).',
  plans: 'The plan id (`plan_…`).',
  identities: 'The identity id (`idt_…`).',
  carts: 'The cart id (`crt_…`).',
  orders: 'The order id (`ord_…`).',
  customers: 'The customer id (`cus_…`).',
  prices: 'The price id (`prc_…`).',
  endpoints: 'The webhook endpoint id (`whe_…`).',
  deliveries: 'The delivery id (`msg_…`, its `webhook-id`).',
};

const OTHER_DESCRIPTIONS: Record<string, string> = {
  sku: 'The product SKU, e.g. KG-00001.',
  country: 'ISO 3166-1 alpha-2 country code, e.g. DE.',
  taxClass: 'Tax class.',
};

/** The description of a path parameter, from its name and the collection it identifies a member of. */
function describePathParam(path: string, name: string): string {
  const segments = path.split('/');
  const index = segments.findIndex((segment) => segment.startsWith(`{${name}}`));
  const collection = segments[index - 1] ?? '';
  return (name === 'id' ? ID_DESCRIPTIONS[collection] : OTHER_DESCRIPTIONS[name]) ?? name;
}

/** `/v2/carts/{id}:checkout` → `['id']`. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
}

function parametersOf(schema: z.ZodObject, location: 'path' | 'query' | 'header'): JsonSchema[] {
  const json = toInputSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name:
        location === 'header'
          ? name.replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => dash + c.toUpperCase())
          : name,
      in: location,
      required: location === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: propertySchema,
    };
  });
}

function pathParameters(spec: OperationSpec): JsonSchema[] {
  if (spec.pathParams) {
    return parametersOf(spec.pathParams, 'path').map(({ schema, ...parameter }) => ({
      ...parameter,
      description: parameter.description ?? describePathParam(spec.path, String(parameter.name)),
      schema,
    }));
  }
  return pathParamNames(spec.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    description: describePathParam(spec.path, name),
    schema: { type: 'string', minLength: 1 },
  }));
}

function successResponse(spec: OperationSpec): JsonSchema {
  const { success, kind } = spec;
  const names: string[] = kind === 'public' ? ['ETag'] : [...SUCCESS_HEADERS, ...OPTIONAL_HEADERS];
  if (spec.cacheable && kind !== 'public') names.push('ETag');
  if (success.location) names.push('Location');
  if (honoursIdempotencyKey(spec)) names.push(IDEMPOTENT_REPLAYED_HEADER);
  const response: JsonSchema = { description: success.description };
  if (names.length > 0) response.headers = headerRefs(names);
  if (success.schema) {
    const schema = refTo(success.schema);
    const types = success.contentTypes ?? ['application/json'];
    response.content = Object.fromEntries(types.map((type) => [type, { schema }]));
  }
  return response;
}

function describe(spec: OperationSpec, scope: string | null): string {
  const lines = [spec.description ?? spec.summary];
  if (scope) {
    lines.push(
      '',
      `**Required scope:** \`${scope}\`${spec.kind === 'management' ? ' (every key-management call needs it)' : ''}.`,
      '',
      'Counts against the key’s rate limit (`RateLimit-Policy` / `RateLimit` on every answer; 429 with `Retry-After` when exceeded).',
    );
  } else {
    lines.push('', 'Public: no API key needed, not rate-limited.');
  }
  return lines.join('\n');
}

/**
 * Adds non-problem answers to the error responses: a status without problems gets its own
 * response; one with problems is inlined from its component with the extra media types added.
 */
function withOtherErrors(
  responses: Record<string, JsonSchema>,
  others: NonNullable<OperationSpec['otherErrors']>,
  problems: readonly ProblemTypeEntry[],
): Record<string, JsonSchema> {
  const merged = { ...responses };
  for (const other of others) {
    const media = Object.fromEntries(
      other.contentTypes.map((type) => [type, { schema: refTo(other.schema) }]),
    );
    const existing = merged[String(other.status)];
    const base = existing
      ? problemResponseOf(other.status)
      : { headers: headerRefs(['X-Request-Id']), content: {} };
    merged[String(other.status)] = {
      ...base,
      description: [existing?.description, other.description].filter(Boolean).join('\n\n'),
      content: { ...(base.content as JsonSchema), ...media },
      'x-problem-types': problems.filter((problem) => problem.status === other.status).map((p) => p.type),
    };
  }
  return merged;
}

/** The problem codes every operation that honours `Idempotency-Key` may answer, per service. */
const IDEMPOTENCY_ERRORS = [
  'MALFORMED_IDEMPOTENCY_KEY',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
] as const;

/**
 * True for a POST or PATCH behind a key that changes something, and for a PUT of the service behind
 * the gateway (commerce keeps PUT answers too): it honours `Idempotency-Key`.
 */
export function honoursIdempotencyKey(spec: OperationSpec): boolean {
  if (spec.method === 'PUT') return spec.kind === 'proxied';
  return (spec.method === 'POST' || spec.method === 'PATCH') && spec.kind !== 'public' && !spec.safe;
}

/** The spec's error codes, with the idempotency codes added to the service that answers it. */
function errorsOf(spec: OperationSpec): ErrorRefs {
  if (!honoursIdempotencyKey(spec)) return spec.errors;
  const service = spec.kind === 'management' ? 'gateway' : 'commerce';
  return { ...spec.errors, [service]: [...(spec.errors[service] ?? []), ...IDEMPOTENCY_ERRORS] };
}

/** The OpenAPI Operation Object of a spec. */
export function buildOperation(spec: OperationSpec, { scope }: OperationContext): JsonSchema {
  const problems = resolveErrors(errorsOf(spec));
  const parameters = [
    ...pathParameters(spec),
    ...(spec.query ? parametersOf(spec.query, 'query') : []),
    ...(spec.headers ? parametersOf(spec.headers, 'header') : []),
    ...(honoursIdempotencyKey(spec) ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  const operation: JsonSchema = {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: describe(spec, scope),
  };
  if (scope) operation['x-required-scope'] = scope;
  else operation.security = [];
  if (parameters.length > 0) operation.parameters = parameters;
  if (spec.body) {
    operation.requestBody = {
      required: spec.body.required,
      content: { 'application/json': { schema: refTo(spec.body.schema) } },
    };
  }
  operation.responses = {
    [String(spec.success.status)]: successResponse(spec),
    ...withOtherErrors(operationErrorResponses(problems), spec.otherErrors ?? [], problems),
  };
  if (spec.kind === 'public' || spec.cacheable) {
    Object.assign(operation.responses as JsonSchema, {
      '304': {
        description: 'Not modified: the `If-None-Match` sent is current.',
        headers: headerRefs(['ETag']),
      },
    });
  }
  if (problems.length > 0) operation['x-problem-types'] = problems.map((problem) => problem.type);
  return operation;
}
