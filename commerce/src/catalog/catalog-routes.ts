import {
  ChannelHeaderSchema,
  GetProductQuerySchema,
  ListProductsQuerySchema,
} from '@keygate/contracts/commerce';
import { requireScope } from '@keygate/identity';
import { type Request, type Response, Router } from 'express';
import type { ResponseCache } from '../http/response-cache.ts';
import { parseInput } from '../http/validate.ts';
import type { CatalogEntry, CatalogPage, CatalogService, PricingContext } from './catalog-service.ts';
import { dependenciesOfPage } from './page-dependencies.ts';
import { presentPrice } from './present.ts';
import { imagesOf } from './product-images.ts';

export { ChannelHeaderSchema, GetProductQuerySchema, ListProductsQuerySchema };

function presentEntry(catalog: CatalogService, entry: CatalogEntry, context: PricingContext) {
  const price = catalog.priceEntry(entry, context);
  const { id, sku, name, taxClass, stock } = entry.product;
  return (
    price && {
      id,
      sku,
      name,
      taxClass,
      images: imagesOf(entry.product),
      price: presentPrice(price),
      stock: { available: stock.available },
    }
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

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The cache key of a catalogue request: the path and query exactly as sent plus the channel
 * header, which together are every input of the answer (customer, filters, cursor and limit are
 * in the query; the caller's key is not an input: a catalogue answer is the same for every key).
 * Unnormalised on purpose: two spellings of one query only cost two entries.
 */
function catalogKey(req: Request): string {
  return `${req.originalUrl}\n${String(req.headers['x-channel'] ?? '')}`;
}

/**
 * Answers from the cache when it holds this request's answer for the current data; otherwise
 * runs `compute` and keeps its JSON for the next identical request, until a write changes what it
 * read (`dependsOn`). Only successful answers are kept: errors throw out of `compute` before
 * anything is stored.
 */
function sendCached(
  cache: ResponseCache,
  req: Request,
  res: Response,
  compute: () => { answer: unknown; dependsOn: string[] },
): void {
  const generation = cache.begin();
  const key = catalogKey(req);
  let cached = cache.get(generation, key);
  if (!cached) {
    const { answer, dependsOn } = compute();
    const body = Buffer.from(JSON.stringify(answer));
    const etagOf = req.app.get('etag fn') as ((body: Buffer) => string) | undefined;
    cached = { body, contentType: JSON_TYPE, etag: etagOf ? etagOf(body) : '' };
    cache.store(generation, key, cached, dependsOn);
  }
  res.setHeader('Content-Type', cached.contentType);
  // Set before send, so Express neither hashes the body again nor misses a 304 (If-None-Match).
  if (cached.etag) res.setHeader('ETag', cached.etag);
  res.send(cached.body);
}

/** Catalogue and channel routes (read-only); pages and products are answered through `cache`. */
export function createCatalogRouter(catalog: CatalogService, cache: ResponseCache): Router {
  const router = Router();

  router.get('/v2/channels', requireScope('article:r'), (_req, res) => {
    res.json({ data: catalog.listChannels() });
  });

  router.get('/v2/catalog/products', requireScope('article:r'), (req, res) => {
    sendCached(cache, req, res, () => {
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
      return {
        answer: { ...presentPage(catalog, page), nextCursor: page.nextCursor },
        dependsOn: dependenciesOfPage(page, { kind: 'list', inStock: query.inStock ?? null }),
      };
    });
  });

  router.get('/v2/catalog/products/:sku', requireScope('article:r'), (req, res) => {
    sendCached(cache, req, res, () => {
      const headers = parseInput(ChannelHeaderSchema, req.headers, 'headers');
      const query = parseInput(GetProductQuerySchema, req.query, 'query');
      const sku = String(req.params.sku);
      const page = catalog.getProduct({
        channelCode: headers['x-channel'],
        customerId: query.customer ?? null,
        sku,
      });
      const { data, ...rest } = presentPage(catalog, page);
      return {
        answer: { ...rest, data: data[0] },
        dependsOn: dependenciesOfPage(page, { kind: 'product', sku }),
      };
    });
  });

  return router;
}
