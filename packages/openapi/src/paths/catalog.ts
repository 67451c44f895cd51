import {
  ChannelHeaderSchema,
  GetProductQuerySchema,
  ListProductsQuerySchema,
  MAX_PRODUCT_IMAGES,
  SetProductImagesSchema,
} from '@keygate/contracts/commerce';
import { z } from 'zod';
import type { OperationSpec } from '../operation.ts';
import { requestComponent } from '../registries.ts';
import {
  ChannelListSchema,
  ProductDetailSchema,
  ProductImagesSchema,
  ProductPageSchema,
  SvgImageSchema,
} from '../schemas/catalog.ts';
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

const SetProductImagesRequest = requestComponent('SetProductImagesRequest', SetProductImagesSchema);

/** Catalogue, channels and GraphQL (scope article:r); product images (article:rw to set them). */
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
    method: 'PUT',
    path: '/v2/catalog/products/{sku}/images',
    operationId: 'setProductImages',
    tag: 'Catalogue',
    kind: 'proxied',
    summary: 'Set the images of a product',
    description: `Replaces the product’s ordered images (at most ${MAX_PRODUCT_IMAGES}; \`[]\` leaves it without any). Each \`url\` is an \`https\` URL without credentials or a path under \`/v2/media/\`; \`alt\` is required and \`""\` only for a decorative image; \`width\` and \`height\` are the intrinsic size in pixels. A bad body changes nothing. Catalogue and GraphQL answers show the new list at once. Emits \`product.updated\` when the list differs from the one shown before.`,
    body: { schema: SetProductImagesRequest, required: true },
    success: { status: 200, description: 'The product’s images now.', schema: ProductImagesSchema },
    errors: proxiedErrors(['PRODUCT_NOT_FOUND'], { body: true }),
  },
  {
    method: 'GET',
    path: '/v2/media/products/{sku}/{file}',
    operationId: 'getProductImage',
    tag: 'Catalogue',
    kind: 'proxied',
    cacheable: true,
    summary: 'Get a generated product image',
    description:
      'The generated image a product shows while it has no images of its own: an SVG, the same bytes at the same URL forever (`Cache-Control: public, max-age=31536000, immutable`, a strong `ETag`, 304 to a matching `If-None-Match`). Use the `url` the catalogue gives; other file names answer 404.',
    pathParams: z.object({
      sku: z.string().min(1).meta({ description: 'The product SKU, e.g. KG-00001.' }),
      file: z
        .string()
        .regex(/^[A-Z0-9]{1,2}\.svg$/)
        .meta({ description: 'The product’s initials and `.svg`, as the catalogue’s `url` names it.' }),
    }),
    headers: z.object({
      'if-none-match': z
        .string()
        .optional()
        .meta({ description: 'The `ETag` of a copy held; 304 when current.' }),
    }),
    success: {
      status: 200,
      description: 'The image.',
      schema: SvgImageSchema,
      contentTypes: ['image/svg+xml'],
    },
    errors: proxiedErrors(['ROUTE_NOT_FOUND']),
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
