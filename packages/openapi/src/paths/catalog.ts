import {
  ChannelHeaderSchema,
  GetProductQuerySchema,
  ListProductsQuerySchema,
} from '@keygate/contracts/commerce';
import type { OperationSpec } from '../operation.ts';
import { ChannelListSchema, ProductDetailSchema, ProductPageSchema } from '../schemas/catalog.ts';
import { GraphqlQueryParamsSchema, GraphqlRequestSchema, GraphqlResponseSchema } from '../schemas/graphql.ts';
import { proxiedErrors } from './errors.ts';

const GRAPHQL_TYPES = ['application/json', 'application/graphql-response+json'] as const;
const GRAPHQL_400 = [
  {
    status: 400,
    description: 'A request GraphQL cannot run (e.g. no `query`): a GraphQL body with `errors`.',
    schema: GraphqlResponseSchema,
    contentTypes: GRAPHQL_TYPES,
  },
];
const GRAPHQL =
  'GraphQL over HTTP (queries only): products of a channel with resolved prices for a customer or tier and quantity. Errors of the query itself come back in `errors` (resolver errors carry the commerce `code` in `extensions`). Answers `application/json` unless `Accept` asks for `application/graphql-response+json`.';

/** Catalogue, channels and GraphQL (scope article:r). */
export const CATALOG_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'GET',
    path: '/v2/channels',
    operationId: 'listChannels',
    tag: 'Catalogue',
    kind: 'proxied',
    summary: 'List sales channels',
    success: { status: 200, description: 'Every channel, ordered by code.', schema: ChannelListSchema },
    errors: proxiedErrors([]),
  },
  {
    method: 'GET',
    path: '/v2/catalog/products',
    operationId: 'listProducts',
    tag: 'Catalogue',
    kind: 'proxied',
    summary: 'List the products of a channel with prices',
    description:
      'Products sold in the channel (`X-Channel`), with the unit price at quantity 1 for the customer (agreement > tier > base) and the stock available. Paged by SKU with `cursor`. `q` keeps the products whose name or SKU contains the text (any case; indexed for three characters or more).',
    query: ListProductsQuerySchema,
    headers: ChannelHeaderSchema,
    success: { status: 200, description: 'A page of products.', schema: ProductPageSchema },
    errors: proxiedErrors(['VALIDATION_FAILED', 'UNKNOWN_CHANNEL', 'UNKNOWN_CUSTOMER', 'INVALID_CURSOR']),
  },
  {
    method: 'GET',
    path: '/v2/catalog/products/{sku}',
    operationId: 'getProduct',
    tag: 'Catalogue',
    kind: 'proxied',
    summary: 'Get one product of a channel with its price',
    query: GetProductQuerySchema,
    headers: ChannelHeaderSchema,
    success: {
      status: 200,
      description: 'The product as the channel sells it.',
      schema: ProductDetailSchema,
    },
    errors: proxiedErrors(['VALIDATION_FAILED', 'UNKNOWN_CHANNEL', 'UNKNOWN_CUSTOMER', 'PRODUCT_NOT_FOUND']),
  },
  {
    method: 'GET',
    path: '/v2/graphql',
    operationId: 'queryGraphqlGet',
    tag: 'GraphQL',
    kind: 'proxied',
    summary: 'Run a GraphQL query (GET)',
    description: GRAPHQL,
    query: GraphqlQueryParamsSchema,
    success: {
      status: 200,
      description: 'The executed query: `data` and/or `errors`.',
      schema: GraphqlResponseSchema,
      contentTypes: GRAPHQL_TYPES,
    },
    errors: proxiedErrors([]),
    otherErrors: GRAPHQL_400,
  },
  {
    method: 'POST',
    path: '/v2/graphql',
    operationId: 'queryGraphql',
    safe: true,
    tag: 'GraphQL',
    kind: 'proxied',
    summary: 'Run a GraphQL query (POST)',
    description: GRAPHQL,
    body: { schema: GraphqlRequestSchema, required: true },
    success: {
      status: 200,
      description: 'The executed query: `data` and/or `errors`.',
      schema: GraphqlResponseSchema,
      contentTypes: GRAPHQL_TYPES,
    },
    errors: proxiedErrors(['MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
    otherErrors: GRAPHQL_400,
  },
];
