import { z } from 'zod';
import type { OperationSpec } from '../operation.ts';
import { responseComponent } from '../registries.ts';

const OpenApiDocumentSchema = responseComponent(
  'OpenApiDocument',
  z
    .looseObject({
      openapi: z.string().regex(/^3\.1\.\d+$/),
      info: z.looseObject({ title: z.string(), version: z.string() }),
    })
    .meta({ description: 'This OpenAPI 3.1 document.' }),
);

/** What the gateway serves without a key. */
export const DOCS_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'GET',
    path: '/v2/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Documentation',
    kind: 'public',
    summary: 'Get this OpenAPI document',
    description:
      'The document this API is described by; the same content is rendered for people at `/docs`. Cacheable (`ETag`).',
    headers: z.object({
      'if-none-match': z
        .string()
        .optional()
        .meta({ description: 'The `ETag` of a copy held; 304 when current.' }),
    }),
    success: { status: 200, description: 'The OpenAPI 3.1 document.', schema: OpenApiDocumentSchema },
    errors: {},
  },
];
