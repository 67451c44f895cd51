/** A JSON Schema or OpenAPI object, read defensively: the page renders whatever document it is given. */
export type Node = Record<string, unknown>;

/** The object at `value`, or an empty one. */
export function asNode(value: unknown): Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : {};
}

/** Follows a local `$ref` (also chains), keeping a sibling `description` as the override it is in 3.1. */
export function resolveRef(document: Node, value: unknown): Node {
  let node = asNode(value);
  const override = typeof node.description === 'string' && node.$ref ? node.description : undefined;
  for (let hops = 0; typeof node.$ref === 'string' && node.$ref.startsWith('#/') && hops < 8; hops++) {
    let target: unknown = document;
    for (const part of node.$ref.slice(2).split('/')) {
      target = asNode(target)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    node = asNode(target);
  }
  return override === undefined ? node : { ...node, description: override };
}
