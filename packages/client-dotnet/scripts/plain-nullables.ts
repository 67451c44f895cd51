/**
 * Rewrites the OpenAPI 3.1 ways of writing "X or null" into plain X, for the .NET generation only (the served
 * document stays as it is). Kiota 1.38 turns `anyOf: [X, {type: null}]` into a composed wrapper class
 * (`cart.CheckedOutAt?.DateTimeOffset`), while every C# property it generates for a plain X is already nullable
 * (`DateTimeOffset?`, `string?`, `int?`, an enum `?`), so dropping the null branch loses nothing a reader of the
 * model could see. The rules, applied to every schema object:
 * 1. `anyOf` (or `oneOf`) of exactly one schema and `{type: "null"}` becomes that schema, with the outer keys
 *    (description, default) kept and a `default: null` dropped; a bare `$ref` with outer keys becomes a
 *    one-entry `allOf` of it, so the keys stay the property's;
 * 2. `type: [X, "null"]` becomes `type: X`;
 * 3. either way the result is marked `nullable: true` (the 3.0 keyword, which Kiota ignores in a 3.1 document
 *    but a reader of the transformed copy still sees);
 * 4. a string whose pattern is exactly a calendar date (`^\d{4}-\d{2}-\d{2}$`) gets `format: date`, so the model
 *    holds a date (`DateOnly` converts to it) rather than a string.
 */

type Schema = Record<string, unknown>;

/** The pattern the document uses for a calendar date (YYYY-MM-DD) on strings without a format. */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullSchema(value: unknown): boolean {
  return isObject(value) && value.type === 'null' && Object.keys(value).length === 1;
}

/** A bare `{ $ref }`: a use of a named schema. */
function isReference(value: unknown): boolean {
  return isObject(value) && typeof value.$ref === 'string' && Object.keys(value).length === 1;
}

/** The one non-null branch of `anyOf`/`oneOf: [X, {type: null}]`, or undefined when the schema is not that. */
function nullableBranch(schema: Schema): { key: 'anyOf' | 'oneOf'; branch: unknown } | undefined {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length !== 2) continue;
    const others = branches.filter((branch) => !isNullSchema(branch));
    if (others.length === 1) return { key, branch: others[0] };
  }
  return undefined;
}

/** One schema object with rules 1-4 applied at its top level (children are handled by the walk). */
function plainSchema(schema: Schema): Schema {
  let result: Schema = schema;
  const nullable = nullableBranch(schema);
  if (nullable && isObject(nullable.branch)) {
    const { [nullable.key]: _dropped, ...outer } = schema;
    if (outer.default === null) delete outer.default;
    // A reference keeps its own keys to itself: Kiota 1.38 builds the referenced model in parallel with
    // its uses, and a description beside the `$ref` then lands on the model (an enum's summary) on some
    // runs and not others. Under a one-entry `allOf` the description stays the property's.
    result =
      isReference(nullable.branch) && Object.keys(outer).length > 0
        ? { allOf: [nullable.branch], ...outer, nullable: true }
        : { ...nullable.branch, ...outer, nullable: true };
  }
  if (Array.isArray(result.type) && result.type.includes('null')) {
    const types = result.type.filter((type) => type !== 'null');
    result = { ...result, type: types.length === 1 ? types[0] : types, nullable: true };
  }
  if (result.type === 'string' && result.pattern === DATE_PATTERN && result.format === undefined) {
    result = { ...result, format: 'date' };
  }
  return result;
}

/** A deep copy of `node` with every schema written in plain-nullable form (rules at the top of this module). */
export function toPlainNullables<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item) => toPlainNullables(item)) as T;
  if (!isObject(node)) return node;
  const rewritten = plainSchema(node);
  return Object.fromEntries(
    Object.entries(rewritten).map(([key, value]) => [key, toPlainNullables(value)]),
  ) as T;
}

const KIOTA_DATE = 'global::Microsoft.Kiota.Abstractions.Date';

/**
 * Kiota 1.38 writes a `format: date` property as its own `Date` struct (kept for .NET Standard); this client
 * targets .NET 8 and later, so the models get `DateOnly?` and convert at the (de)serializer, the only two places
 * that touch Kiota's type. Throws on a use of `Date` it does not know, so a Kiota upgrade cannot slip one past.
 */
export function useDateOnly(source: string, file: string): string {
  const rewritten = source
    .replace(/public Date\? (\w+) \{ get; set; \}/g, 'public DateOnly? $1 { get; set; }')
    .replace(
      /(\w+) = n\.GetDateValue\(\);/g,
      '$1 = n.GetDateValue() is { } date ? new DateOnly(date.Year, date.Month, date.Day) : null;',
    )
    .replace(
      /writer\.WriteDateValue\("(\w+)", (\w+)\);/g,
      `writer.WriteDateValue("$1", $2.HasValue ? new ${KIOTA_DATE}($2.Value.Year, $2.Value.Month, $2.Value.Day) : null);`,
    );
  const left = rewritten
    .split('\n')
    .find((line) => /\bDate\?|GetDateValue\(\);|WriteDateValue\("\w+", \w+\)/.test(line));
  if (left)
    throw new Error(`${file}: a use of Kiota's Date that useDateOnly does not rewrite: ${left.trim()}`);
  return rewritten;
}
