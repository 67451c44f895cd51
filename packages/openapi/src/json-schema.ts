import { z } from 'zod';
import { type ComponentMeta, requestComponents, responseComponents } from './registries.ts';

/** A JSON Schema (2020-12) object as it goes into the document. */
export type JsonSchema = Record<string, unknown>;

/** Where component schemas live in the document. */
export const SCHEMA_REF_BASE = '#/components/schemas/';

const SAFE_MIN = Number.MIN_SAFE_INTEGER;
const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/**
 * Drops what zod adds that an OpenAPI reader does not need: `$schema`/`$id` on every component,
 * the ±2^53 bounds of every integer, and (for responses, `open`) `additionalProperties: false`,
 * so that adding a response member stays a compatible change.
 */
function tidy(node: unknown, open: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => tidy(item, open));
  if (typeof node !== 'object' || node === null) return node;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id') continue;
    if (key === 'minimum' && value === SAFE_MIN) continue;
    if (key === 'maximum' && value === SAFE_MAX) continue;
    if (open && key === 'additionalProperties' && value === false) continue;
    result[key] = tidy(value, open);
  }
  return result;
}

function convertRegistry(registry: z.core.$ZodRegistry<ComponentMeta>, io: 'input' | 'output') {
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'throw',
    uri: (id) => `${SCHEMA_REF_BASE}${id}`,
  });
  return tidy(schemas, io === 'output') as Record<string, JsonSchema>;
}

/** Every registered request and response schema as `components.schemas`, sorted by name. */
export function buildComponentSchemas(): Record<string, JsonSchema> {
  const requests = convertRegistry(requestComponents, 'input');
  const responses = convertRegistry(responseComponents, 'output');
  for (const name of Object.keys(requests)) {
    if (name in responses) throw new Error(`component schema ${name} is both a request and a response`);
  }
  const all = { ...requests, ...responses };
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
}

/** A `$ref` to the component a schema was registered as; throws for an unregistered schema. */
export function refTo(schema: z.ZodType): JsonSchema {
  const meta = requestComponents.get(schema) ?? responseComponents.get(schema);
  if (!meta) throw new Error('schema is not registered as a component; register it with an id');
  return { $ref: `${SCHEMA_REF_BASE}${meta.id}` };
}

/** A standalone request-side schema (parameters), inline. */
export function toInputSchema(schema: z.ZodType): JsonSchema {
  return tidy(
    z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }),
    false,
  ) as JsonSchema;
}
