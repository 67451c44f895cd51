/** A JSON Schema or OpenAPI object, read defensively: the page renders whatever document it is given. */
export type Node = Record<string, unknown>;

/** The object at `value`, or an empty one. */
export function asNode(value: unknown): Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : {};
}
