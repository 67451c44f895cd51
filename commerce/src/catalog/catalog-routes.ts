import {
  ChannelHeaderSchema,
  GetProductQuerySchema,
  ListProductsQuerySchema,
} from '@keygate/contracts/commerce';
import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import { parseInput } from '../http/validate.ts';
import type { CatalogEntry, CatalogPage, CatalogService, PricingContext } from './catalog-service.ts';
import { presentPrice } from './present.ts';

export { ChannelHeaderSchema, GetProductQuerySchema, ListProductsQuerySchema };

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
