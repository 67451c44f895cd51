import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../http/validate.ts';
import type { CatalogEntry, CatalogPage, CatalogService, PricingContext } from './catalog-service.ts';
import { presentPrice } from './present.ts';

/** `X-Channel`: the channel whose catalogue, prices and currency the caller wants. */
export const ChannelHeaderSchema = z.object({
  'x-channel': z.string({ error: 'the X-Channel header is required' }).min(1).max(64),
});

/** Query of GET /v2/catalog/products. */
export const ListProductsQuerySchema = z.object({
  customer: z.string().min(1).max(64).optional(),
  inStock: z
    .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
    .transform((v) => v === 'true')
    .optional(),
  limit: z.coerce
    .number({ error: 'must be an integer 1..100' })
    .int('must be an integer 1..100')
    .min(1, 'must be an integer 1..100')
    .max(100, 'must be an integer 1..100')
    .default(50),
  cursor: z.string().min(1).max(512).optional(),
  q: z
    .string({ error: 'must be text of 1..100 characters' })
    .trim()
    .min(1, 'must be text of 1..100 characters')
    .max(100, 'must be text of 1..100 characters')
    .optional(),
});

/** Query of GET /v2/catalog/products/{sku}. */
export const GetProductQuerySchema = z.object({ customer: z.string().min(1).max(64).optional() });

function presentEntry(catalog: CatalogService, entry: CatalogEntry, context: PricingContext) {
  const price = catalog.priceEntry(entry, context);
  const { id, sku, name, taxClass, stock } = entry.product;
  return (
    price && { id, sku, name, taxClass, price: presentPrice(price), stock: { available: stock.available } }
  );
}

function presentPage(catalog: CatalogService, page: CatalogPage) {
  const { channel, customer } = page.context;
  return {
    channel: channel.code,
    currency: channel.currency,
    pricesIncludeVat: channel.pricesIncludeVat,
    customer: customer?.id ?? null,
    data: page.entries.flatMap((entry) => presentEntry(catalog, entry, page.context) ?? []),
  };
}

/** Catalogue and channel routes (read-only). */
export function createCatalogRouter(catalog: CatalogService): Router {
  const router = Router();

  router.get('/v2/channels', requireScope('article:r'), (_req, res) => {
    res.json({ data: catalog.listChannels() });
  });

  router.get('/v2/catalog/products', requireScope('article:r'), (req, res) => {
    const headers = parseInput(ChannelHeaderSchema, req.headers, 'headers');
    const query = parseInput(ListProductsQuerySchema, req.query, 'query');
    const page = catalog.listProducts({
      channelCode: headers['x-channel'],
      customerId: query.customer ?? null,
      inStock: query.inStock ?? null,
      search: query.q ?? null,
      limit: query.limit,
      cursor: query.cursor ?? null,
    });
    res.json({ ...presentPage(catalog, page), nextCursor: page.nextCursor });
  });

  router.get('/v2/catalog/products/:sku', requireScope('article:r'), (req, res) => {
    const headers = parseInput(ChannelHeaderSchema, req.headers, 'headers');
    const query = parseInput(GetProductQuerySchema, req.query, 'query');
    const page = catalog.getProduct({
      channelCode: headers['x-channel'],
      customerId: query.customer ?? null,
      sku: String(req.params.sku),
    });
    const { data, ...rest } = presentPage(catalog, page);
    res.json({ ...rest, data: data[0] });
  });

  return router;
}
