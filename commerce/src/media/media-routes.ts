import { requireScope } from '@keygate/identity';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { GENERATED_IMAGE_SIZE } from '../catalog/product-images.ts';
import { pathParam } from '../http/params.ts';
import { INITIALS_PATTERN, renderProductSvg, SKU_PATTERN, strongEtagOf } from './product-svg.ts';

/** A rendered image, ready to send again. */
interface RenderedImage {
  body: Buffer;
  etag: string;
}

/** How many rendered images are kept (about 1 KiB each): the most recently asked for stay. */
export const MEDIA_CACHE_ENTRIES = 2048;

/** The answer at a media URL never changes (the URL carries every input), so caches keep it a year. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** A bounded least-recently-used map of rendered images. */
function createRenderCache(maxEntries: number) {
  const entries = new Map<string, RenderedImage>();
  return (key: string, render: () => Buffer): RenderedImage => {
    const known = entries.get(key);
    if (known) {
      // Re-inserted: the Map's insertion order is the recency order.
      entries.delete(key);
      entries.set(key, known);
      return known;
    }
    const body = render();
    const image = { body, etag: strongEtagOf(body) };
    entries.set(key, image);
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    return image;
  };
}

/** True when `If-None-Match` names this ETag (or is `*`): the caller already has these bytes. */
function isNotModified(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * GET /v2/media/products/{sku}/{initials}.svg (article:r): the generated product image the
 * catalogue names when a product has no images of its own. Rendered on request from the URL alone
 * (no query), kept in a small LRU, answered with a strong ETag, 304 on a matching If-None-Match,
 * and cached by browsers and CDNs for a year. A URL of any other shape is 404 ROUTE_NOT_FOUND.
 */
export function createMediaRouter(options: { maxEntries?: number } = {}): Router {
  const router = Router();
  const rendered = createRenderCache(options.maxEntries ?? MEDIA_CACHE_ENTRIES);

  router.get(
    '/v2/media/products/:sku/:file',
    requireScope('article:r'),
    (req: Request, res: Response, next: NextFunction) => {
      const sku = pathParam(req, 'sku');
      const initials = /^(.+)\.svg$/.exec(pathParam(req, 'file'))?.[1] ?? '';
      if (!SKU_PATTERN.test(sku) || !INITIALS_PATTERN.test(initials)) return next();
      const image = rendered(`${sku}/${initials}`, () =>
        Buffer.from(renderProductSvg(sku, initials, GENERATED_IMAGE_SIZE), 'utf8'),
      );
      res.setHeader('Cache-Control', IMMUTABLE_CACHE_CONTROL);
      res.setHeader('ETag', image.etag);
      // An SVG opened on its own is a document: it may run nothing and load nothing.
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (isNotModified(req, image.etag)) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Type', 'image/svg+xml');
      res.end(image.body);
    },
  );
  return router;
}
