import { type DocumentNode, type GraphQLError, parse, specifiedRules, validate } from 'graphql';

/**
 * Integrators send the same few query texts over and over, and parsing and validating one was a
 * visible share of a GraphQL request's CPU in profiles. Both are pure functions of the text (the
 * schema is fixed for the life of the app), so their results are kept: documents by query text (a
 * bounded map, oldest dropped first, so arbitrary texts cannot grow it without limit), validation
 * errors by document. Parse errors are thrown every time and never kept. No data is cached here:
 * execution, and so every price and stock figure, runs for every request.
 */
export function createDocumentCache(maxDocuments = 500) {
  const documents = new Map<string, DocumentNode>();
  const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    parse(source: Parameters<typeof parse>[0], options?: Parameters<typeof parse>[1]): DocumentNode {
      if (typeof source !== 'string' || options !== undefined) return parse(source, options);
      const known = documents.get(source);
      if (known) return known;
      const document = parse(source);
      if (documents.size >= maxDocuments) documents.delete(documents.keys().next().value as string);
      documents.set(source, document);
      return document;
    },
    validate(...args: Parameters<typeof validate>): readonly GraphQLError[] {
      const [, document, rules, options] = args;
      // Only the default rule set (graphql-http passes a copy of it) is remembered.
      if (options !== undefined || !isDefaultRuleSet(rules)) return validate(...args);
      const known = validated.get(document);
      if (known) return known;
      const errors = validate(...args);
      validated.set(document, errors);
      return errors;
    },
  };
}

function isDefaultRuleSet(rules: Parameters<typeof validate>[2]): boolean {
  if (rules === undefined) return true;
  return rules.length === specifiedRules.length && rules.every((rule, i) => rule === specifiedRules[i]);
}
