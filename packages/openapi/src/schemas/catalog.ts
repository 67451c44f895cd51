import {
  MAX_IMAGE_ALT_LENGTH,
  MAX_IMAGE_DIMENSION,
  MAX_IMAGE_URL_LENGTH,
  MAX_PRODUCT_IMAGES,
  MEDIA_PATH_PREFIX,
  PRICE_LEVELS,
  TAX_CLASSES,
} from '@keygate/contracts/commerce';
import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { CurrencySchema, count, money, NextCursorSchema } from './common.ts';

/** A sales channel: code, name, currency, tax country and whether its prices include VAT. */
export const ChannelSchema = responseComponent(
  'Channel',
  z.object({
    code: z.string().meta({ description: 'Channel code, e.g. WEB_DE; send it as `X-Channel`.' }),
    name: z.string(),
    currency: CurrencySchema,
    taxCountry: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .meta({ description: 'ISO 3166-1 alpha-2 country whose VAT applies.' }),
    pricesIncludeVat: z.boolean().meta({ description: 'True when stored amounts are gross (VAT included).' }),
  }),
);

/** `GET /v2/channels`: every channel. */
export const ChannelListSchema = responseComponent('ChannelList', z.object({ data: z.array(ChannelSchema) }));

/** Where a resolved price comes from, most specific first. */
export const PriceLevelSchema = responseComponent(
  'PriceLevel',
  z
    .enum(PRICE_LEVELS)
    .meta({ description: 'Which price applied: agreement (the customer’s own) > tier > base.' }),
);

/** The VAT class of a product. */
export const TaxClassSchema = responseComponent('TaxClass', z.enum(TAX_CLASSES));

/** A resolved unit price as catalogue, carts and customer pricing show it. */
export const UnitPriceSchema = responseComponent(
  'UnitPrice',
  z.object({
    amount: money('The stored price: gross in channels whose prices include VAT, else net (minor units).'),
    net: money('Net unit price in minor units.'),
    vat: money('VAT per unit in minor units.'),
    gross: money('Gross unit price (net + vat) in minor units.'),
    vatRate: z.number().meta({ description: 'VAT rate as a fraction, e.g. 0.19 (display only).' }),
    vatRateBp: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .meta({ description: 'VAT rate in basis points, e.g. 1900; exact.' }),
    currency: CurrencySchema,
    source: PriceLevelSchema,
    minQuantity: z.number().int().min(1).meta({ description: 'The quantity break this price starts at.' }),
  }),
);

const pixels = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_IMAGE_DIMENSION)
    .meta({ description: `Intrinsic ${what} in pixels.` });

/** One product image with its intrinsic size. */
export const ProductImageSchema = responseComponent(
  'ProductImage',
  z.object({
    url: z
      .string()
      .max(MAX_IMAGE_URL_LENGTH)
      .meta({
        description: `An \`https\` URL, or a root-relative path under \`${MEDIA_PATH_PREFIX}\` on the API’s own origin (the gateway; fetched with a key holding \`article:r\`, like any call).`,
      }),
    alt: z.string().max(MAX_IMAGE_ALT_LENGTH).meta({
      description: 'Text alternative for people who cannot see the image; `""` marks a decorative image.',
    }),
    width: pixels('width'),
    height: pixels('height'),
  }),
);

/** A product's images in display order. */
const ImagesSchema = z.array(ProductImageSchema).max(MAX_PRODUCT_IMAGES).meta({
  description:
    'In display order: the images set with `PUT /v2/catalog/products/{sku}/images`, else one generated image (an SVG with the product’s initials).',
});

/** `PUT /v2/catalog/products/{sku}/images`: the product's images as they are now. */
export const ProductImagesSchema = responseComponent(
  'ProductImages',
  z.object({ sku: z.string(), images: ImagesSchema }),
);

/** The bytes of a generated product image. */
export const SvgImageSchema = responseComponent(
  'SvgImage',
  z.string().meta({ description: 'An SVG document (no script, no external reference).' }),
);

/** A product as the catalogue lists it in one channel, priced for the customer asked for. */
export const CatalogProductSchema = responseComponent(
  'CatalogProduct',
  z.object({
    id: z.string(),
    sku: z.string(),
    name: z.string(),
    taxClass: TaxClassSchema,
    images: ImagesSchema,
    price: UnitPriceSchema,
    stock: z.object({ available: count('Units available to order (on hand − allocated).') }),
  }),
);

const catalogContext = {
  channel: z.string().meta({ description: 'The channel code the prices are for.' }),
  currency: CurrencySchema,
  pricesIncludeVat: z.boolean(),
  customer: z.string().nullable().meta({ description: 'The customer whose prices apply, or null.' }),
};

/** A page of catalogue products, with the channel and customer they are priced for. */
export const ProductPageSchema = responseComponent(
  'ProductPage',
  z.object({ ...catalogContext, data: z.array(CatalogProductSchema), nextCursor: NextCursorSchema }),
);

/** One catalogue product, with the channel and customer it is priced for. */
export const ProductDetailSchema = responseComponent(
  'ProductDetail',
  z.object({ ...catalogContext, data: CatalogProductSchema }),
);
