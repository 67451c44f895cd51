import { z } from 'zod';
import { requestComponent, responseComponent } from '../registries.ts';

/** The body of `POST /v2/graphql`: a query document, its variables and operation name. */
export const GraphqlRequestSchema = requestComponent(
  'GraphqlRequest',
  z.object({
    query: z.string().min(1).meta({ description: 'The GraphQL document (queries only; no mutations).' }),
    variables: z.record(z.string(), z.unknown()).nullable().optional(),
    operationName: z.string().nullable().optional(),
    extensions: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
);

/** GET /v2/graphql: the same members as query parameters; `variables` and `extensions` JSON-encoded. */
export const GraphqlQueryParamsSchema = z.object({
  query: z.string().min(1).meta({ description: 'The GraphQL document.' }),
  variables: z.string().optional().meta({ description: 'JSON-encoded variables object.' }),
  operationName: z.string().optional(),
  extensions: z.string().optional().meta({ description: 'JSON-encoded extensions object.' }),
});

/** A GraphQL answer: `data`, `errors`, or both. */
export const GraphqlResponseSchema = responseComponent(
  'GraphqlResponse',
  z
    .object({
      data: z.record(z.string(), z.unknown()).nullable().optional(),
      errors: z
        .array(
          z.object({
            message: z.string(),
            locations: z.array(z.object({ line: z.number().int(), column: z.number().int() })).optional(),
            path: z.array(z.union([z.string(), z.number().int()])).optional(),
            extensions: z
              .record(z.string(), z.unknown())
              .optional()
              .meta({ description: 'Resolver errors carry the commerce error `code` here.' }),
          }),
        )
        .optional(),
    })
    .meta({ description: 'GraphQL over HTTP response: `data`, `errors`, or both.' }),
);
