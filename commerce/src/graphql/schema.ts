import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLError,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from 'graphql';
import type { Logger } from 'pino';
import { MAX_LINE_QUANTITY } from '../carts/cart-service.ts';
import {
  type CatalogEntry,
  type CatalogService,
  type PricingContext,
  priceEntry,
} from '../catalog/catalog-service.ts';
import { encodeCursor } from '../catalog/cursor.ts';
import { dependenciesOfPage } from '../catalog/page-dependencies.ts';
import { imagesOf } from '../catalog/product-images.ts';
import type { Channel, ProductImage } from '../catalog/types.ts';
import { CommerceError } from '../errors.ts';
import type { ResolvedPrice } from '../pricing/resolve-price.ts';
import { isCustomerTier } from '../pricing/types.ts';

/** Per-request GraphQL context. */
export type GraphqlContext = {
  requestId: string;
  log: Logger;
  /** Change-log tags of what the resolvers read: the response cache files the answer under them. */
  dependsOn: string[];
};

/** A product of a resolved page: the entry plus the page's pricing context (no further queries). */
interface ProductSource {
  entry: CatalogEntry;
  context: PricingContext;
}

const MONEY = 'Integer amount in minor units of `currency` (e.g. cents); never a float.';
/** The quantities `price` accepts: the same bounds as a cart line. */
const QUANTITY_RANGE = `1..${MAX_LINE_QUANTITY}`;

/** Runs a resolver, turning CommerceErrors into coded GraphQL errors and hiding anything else. */
function guard<T>(context: GraphqlContext, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof CommerceError) {
      throw new GraphQLError(error.message, { extensions: { code: error.code, ...error.extensions } });
    }
    context.log.error({ err: error }, 'graphql resolver failed');
    throw new GraphQLError(`Internal error; quote request id ${context.requestId}.`, {
      extensions: { code: 'INTERNAL_ERROR', requestId: context.requestId },
    });
  }
}

function invalid(detail: string): CommerceError {
  return new CommerceError('VALIDATION_FAILED', detail);
}

const PriceType = new GraphQLObjectType<ResolvedPrice>({
  name: 'Price',
  description: `A unit price. Every money field is an ${MONEY}`,
  fields: {
    amount: {
      type: new GraphQLNonNull(GraphQLInt),
      description: `The stored price: gross in channels whose prices include VAT, else net. ${MONEY}`,
    },
    currency: { type: new GraphQLNonNull(GraphQLString), description: 'ISO 4217 currency code.' },
    net: { type: new GraphQLNonNull(GraphQLInt), description: `Net unit price. ${MONEY}` },
    vat: { type: new GraphQLNonNull(GraphQLInt), description: `VAT per unit. ${MONEY}` },
    gross: { type: new GraphQLNonNull(GraphQLInt), description: `Gross unit price (net + vat). ${MONEY}` },
    vatRate: { type: new GraphQLNonNull(GraphQLFloat), description: 'VAT rate as a fraction, e.g. 0.19.' },
    vatRateBp: { type: new GraphQLNonNull(GraphQLInt), description: 'VAT rate in basis points, e.g. 1900.' },
    source: {
      type: new GraphQLNonNull(GraphQLString),
      description: 'Which price applied: agreement (the customer’s own), tier, or base.',
    },
    minQuantity: {
      type: new GraphQLNonNull(GraphQLInt),
      description: 'The quantity break this price starts at.',
    },
  },
});

const StockType = new GraphQLObjectType<ProductSource>({
  name: 'Stock',
  fields: {
    available: {
      type: new GraphQLNonNull(GraphQLInt),
      description: 'Units available to sell (on hand − allocated).',
      resolve: (s) => s.entry.product.stock.available,
    },
  },
});

const ProductImageType = new GraphQLObjectType<ProductImage>({
  name: 'ProductImage',
  description: 'One image of a product, with its intrinsic size so a page can reserve the space.',
  fields: {
    url: {
      type: new GraphQLNonNull(GraphQLString),
      description: 'An https URL, or a path under /v2/media/ on the API’s own origin (the gateway).',
    },
    alt: {
      type: new GraphQLNonNull(GraphQLString),
      description: 'Text alternative; the empty string marks a decorative image.',
    },
    width: { type: new GraphQLNonNull(GraphQLInt), description: 'Intrinsic width in pixels.' },
    height: { type: new GraphQLNonNull(GraphQLInt), description: 'Intrinsic height in pixels.' },
  },
});

const ProductType = new GraphQLObjectType<ProductSource, GraphqlContext>({
  name: 'Product',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID), resolve: (s) => s.entry.product.id },
    sku: { type: new GraphQLNonNull(GraphQLString), resolve: (s) => s.entry.product.sku },
    name: { type: new GraphQLNonNull(GraphQLString), resolve: (s) => s.entry.product.name },
    taxClass: { type: new GraphQLNonNull(GraphQLString), resolve: (s) => s.entry.product.taxClass },
    images: {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(ProductImageType))),
      description:
        'The product’s images in display order: those set through the API, else one generated image.',
      resolve: (s) => imagesOf(s.entry.product),
    },
    cursor: {
      type: new GraphQLNonNull(GraphQLString),
      description: 'Pass as `after` to continue the list after this product.',
      resolve: (s) => encodeCursor(s.entry.product.sku),
    },
    stock: { type: new GraphQLNonNull(StockType), resolve: (s) => s },
    price: {
      type: PriceType,
      description:
        'The unit price in the channel for `quantity` units (quantity breaks apply). `tier` (retail, silver, ' +
        "gold) overrides the customer's tier; agreement prices still need the `customer` argument of the list. " +
        'Computed from the prices loaded with the page: no query per product.',
      args: {
        tier: { type: GraphQLString },
        quantity: {
          type: GraphQLInt,
          defaultValue: 1,
          description: `Units, ${QUANTITY_RANGE} like a cart line; outside it the field is null with a VALIDATION_FAILED error.`,
        },
      },
      resolve: (s, args: { tier?: string | null; quantity?: number | null }, ctx) =>
        guard(ctx, () => {
          const quantity = args.quantity ?? 1;
          if (quantity < 1 || quantity > MAX_LINE_QUANTITY) {
            throw invalid(`quantity must be an integer ${QUANTITY_RANGE}.`);
          }
          const tier = args.tier ?? null;
          if (tier !== null && !isCustomerTier(tier)) throw invalid('tier must be retail, silver or gold.');
          return priceEntry(s.entry, s.context, { quantity, tier });
        }),
    },
  },
});

/** The `Channel` enum: one value per channel code in this environment's database. */
function buildChannelEnum(channels: readonly Channel[]): GraphQLEnumType {
  return new GraphQLEnumType({
    name: 'Channel',
    description:
      'A sales channel of this environment; it fixes currency, VAT country and net/gross pricing. ' +
      'The values are read from the database when the service starts: a channel added later appears after a restart.',
    values: Object.fromEntries(
      channels.map((c) => [
        c.code,
        {
          value: c.code,
          description: `${c.name} (${c.currency}, ${c.pricesIncludeVat ? 'gross' : 'net'} prices)`,
        },
      ]),
    ),
  });
}

interface ProductsArgs {
  channel: string;
  inStock?: boolean | null;
  q?: string | null;
  customer?: string | null;
  first?: number | null;
  after?: string | null;
}

/**
 * Builds the schema. Resolvers are thin: `products` calls the same catalogue service as REST and
 * resolves the whole page (prices and stock included) in a fixed number of queries.
 */
export function buildGraphqlSchema(catalog: CatalogService, channels: readonly Channel[]): GraphQLSchema {
  const query = new GraphQLObjectType<unknown, GraphqlContext>({
    name: 'Query',
    fields: {
      products: {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(ProductType))),
        description:
          'Products sold in the channel, ordered by SKU. `first` is 1..100 (default 50); pass the `cursor` of ' +
          'the last product as `after` for the next page. Money is in integer minor units of the currency.',
        args: {
          channel: { type: new GraphQLNonNull(buildChannelEnum(channels)) },
          inStock: { type: GraphQLBoolean, description: 'true: only available > 0; false: only sold out.' },
          q: {
            type: GraphQLString,
            description:
              'Search: only products whose name or SKU contains this text (any case), 1..100 characters.',
          },
          customer: { type: GraphQLID, description: 'Customer id: applies their agreement and tier prices.' },
          first: { type: GraphQLInt, defaultValue: 50 },
          after: { type: GraphQLString },
        },
        resolve: (_root, args: ProductsArgs, ctx): ProductSource[] =>
          guard(ctx, () => {
            const limit = args.first ?? 50;
            if (limit < 1 || limit > 100) throw invalid('first must be 1..100.');
            const q = args.q?.trim() ?? null;
            if (q !== null && (q.length < 1 || q.length > 100))
              throw invalid('q must be text of 1..100 characters.');
            const page = catalog.listProducts({
              channelCode: args.channel,
              customerId: args.customer ?? null,
              inStock: args.inStock ?? null,
              search: q,
              limit,
              cursor: args.after ?? null,
            });
            ctx.dependsOn.push(...dependenciesOfPage(page, { kind: 'list', inStock: args.inStock ?? null }));
            return page.entries.map((entry) => ({ entry, context: page.context }));
          }),
      },
    },
  });
  return new GraphQLSchema({ query });
}
