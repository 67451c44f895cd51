import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isInputType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
  valueFromAST,
} from 'graphql';

/** The response header that carries a query's cost to the gateway, which charges it to the caller. */
export const COST_HEADER = 'Keygate-Cost';

/** The arguments that ask for a page size: a field taking one is a connection. */
const PAGE_SIZE_ARGUMENTS = ['first', 'last'] as const;

/**
 * A GraphQL query's calculated cost, as Shopify prices its Admin API queries, computed from the
 * document before anything runs (what the caller asked for, not what came back):
 * 1. a field whose type is an object (or interface, or union) costs 1;
 * 2. a connection, a field of such a type taking `first` or `last`, costs 2 plus the page size it
 *    asks for: `first` (or `last`; the larger if both) as written, from a variable (or the
 *    variable's default), else the argument's default page size;
 * 3. a scalar or enum field costs 0;
 * 4. the query costs the sum over the fields of its answer, and at least 1: fields of one response
 *    key count once, however many times they are written or spread through fragments, since
 *    execution merges them into one (a fragment spread many times cannot inflate the cost, nor
 *    make computing it slow).
 * So a 250-product page costs more than a 10-product one, whatever fields each product asks for.
 * An unknown field, an unknown operation or a fragment cycle adds nothing: validation refuses such
 * a document anyway, and its answer, an error, still costs the minimum.
 */
export function calculateQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  request: { operationName?: string | null; variables?: Readonly<Record<string, unknown>> | null } = {},
): number {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = request.operationName
    ? operations.find((o) => o.name?.value === request.operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return 1;
  const walk = {
    schema,
    fragments: new Map(
      document.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    ),
    variables: variablesWithDefaults(schema, operation, request.variables ?? {}),
  };
  return Math.max(1, costOfSelections(walk, [operation.selectionSet], root));
}

type Walk = {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
};

/** The request's variables, with each absent one's default from the operation filled in. */
function variablesWithDefaults(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const variables: Record<string, unknown> = { ...given };
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    if (variables[name] === undefined && definition.defaultValue && isInputType(type)) {
      variables[name] = valueFromAST(definition.defaultValue, type);
    }
  }
  return variables;
}

/** Fields by response key, as execution merges them, and selections made on another type. */
interface Collected {
  fields: Map<string, FieldNode[]>;
  elsewhere: Array<{ type: GraphQLCompositeType; set: SelectionSetNode }>;
}

/**
 * Gathers what `sets` ask of `parent`: fields of one response key merge (their selections are
 * priced together, once), and a fragment is expanded once (a second spread adds nothing), as
 * graphql-js collects fields. `expanded` holds the fragments expanded here and on the way here:
 * none is expanded again below (so a cycle, which validation refuses, ends), and a fragment on an
 * object type that is not `parent` never applies.
 */
function collect(
  walk: Walk,
  sets: readonly SelectionSetNode[],
  parent: GraphQLCompositeType,
  expanded: Set<string>,
  into: Collected,
): void {
  for (const set of sets) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const known = into.fields.get(key);
        if (known) known.push(selection);
        else into.fields.set(key, [selection]);
        continue;
      }
      let type: unknown = parent;
      let inner: SelectionSetNode;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (selection.typeCondition) type = walk.schema.getType(selection.typeCondition.name.value);
        inner = selection.selectionSet;
      } else {
        const name = selection.name.value;
        const fragment = walk.fragments.get(name);
        if (!fragment || expanded.has(name)) continue;
        expanded.add(name);
        type = walk.schema.getType(fragment.typeCondition.name.value);
        inner = fragment.selectionSet;
      }
      if (!isCompositeType(type)) continue;
      if (type === parent) collect(walk, [inner], parent, expanded, into);
      else if (!isObjectType(type) || !isObjectType(parent)) into.elsewhere.push({ type, set: inner });
    }
  }
}

function costOfSelections(
  walk: Walk,
  sets: readonly SelectionSetNode[],
  parent: GraphQLCompositeType,
  expandedAbove: ReadonlySet<string> = new Set(),
): number {
  const collected: Collected = { fields: new Map(), elsewhere: [] };
  const expanded = new Set(expandedAbove);
  collect(walk, sets, parent, expanded, collected);
  let cost = 0;
  for (const nodes of collected.fields.values()) cost += costOfField(walk, nodes, parent, expanded);
  for (const { type, set } of collected.elsewhere) cost += costOfSelections(walk, [set], type, expanded);
  return cost;
}

function costOfField(
  walk: Walk,
  nodes: readonly FieldNode[],
  parent: GraphQLCompositeType,
  expanded: ReadonlySet<string>,
): number {
  const [node] = nodes;
  // A union's own fields are only __typename, a scalar.
  if (!node || (!isObjectType(parent) && !isInterfaceType(parent))) return 0;
  const field = parent.getFields()[node.name.value];
  if (!field) return 0;
  const type = getNamedType(field.type);
  if (!isCompositeType(type)) return 0;
  const isConnection = field.args.some((a) => (PAGE_SIZE_ARGUMENTS as readonly string[]).includes(a.name));
  const own = isConnection ? 2 + pageSizeOf(walk, node, field) : 1;
  const inner = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
  return own + (inner.length > 0 ? costOfSelections(walk, inner, type, expanded) : 0);
}

function pageSizeOf(walk: Walk, node: FieldNode, field: GraphQLField<unknown, unknown>): number {
  let size = 0;
  for (const name of PAGE_SIZE_ARGUMENTS) {
    const definition = field.args.find((a) => a.name === name);
    if (!definition) continue;
    const written = node.arguments?.find((a) => a.name.value === name);
    const value = written ? valueFromAST(written.value, definition.type, walk.variables) : undefined;
    const asked = typeof value === 'number' ? value : definition.defaultValue;
    if (typeof asked === 'number' && Number.isFinite(asked)) size = Math.max(size, Math.trunc(asked));
  }
  return size;
}
