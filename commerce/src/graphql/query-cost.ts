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
 * 4. the query costs the sum over every field it selects, fragments counted where they are spread,
 *    and at least 1.
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
    spreading: new Set<string>(),
  };
  return Math.max(1, costOfSelections(walk, operation.selectionSet, root));
}

type Walk = {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Fragments being expanded on the current path: a cycle stops there. */
  spreading: Set<string>;
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

function costOfSelections(walk: Walk, set: SelectionSetNode, parent: GraphQLCompositeType): number {
  let cost = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      cost += costOfField(walk, selection, parent);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : parent;
      if (isCompositeType(type)) cost += costOfSelections(walk, selection.selectionSet, type);
    } else {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      const type = fragment && walk.schema.getType(fragment.typeCondition.name.value);
      if (!fragment || !isCompositeType(type) || walk.spreading.has(name)) continue;
      walk.spreading.add(name);
      cost += costOfSelections(walk, fragment.selectionSet, type);
      walk.spreading.delete(name);
    }
  }
  return cost;
}

function costOfField(walk: Walk, node: FieldNode, parent: GraphQLCompositeType): number {
  // A union's own fields are only __typename, a scalar.
  if (!isObjectType(parent) && !isInterfaceType(parent)) return 0;
  const field = parent.getFields()[node.name.value];
  if (!field) return 0;
  const type = getNamedType(field.type);
  if (!isCompositeType(type)) return 0;
  const isConnection = field.args.some((a) => (PAGE_SIZE_ARGUMENTS as readonly string[]).includes(a.name));
  const own = isConnection ? 2 + pageSizeOf(walk, node, field) : 1;
  return own + (node.selectionSet ? costOfSelections(walk, node.selectionSet, type) : 0);
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
