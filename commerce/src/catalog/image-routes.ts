import { SetProductImagesSchema } from '@keygate/contracts/commerce';
import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import { pathParam } from '../http/params.ts';
import { parseInput } from '../http/validate.ts';
import type { ProductImageService } from './image-service.ts';

/**
 * PUT /v2/catalog/products/{sku}/images {images: [{url, alt, width, height}]} (article:rw):
 * replaces the product's ordered images and answers {sku, images}.
 */
export function createImageRouter(images: ProductImageService): Router {
  const router = Router();
  router.put('/v2/catalog/products/:sku/images', requireScope('article:rw'), (req, res) => {
    const body = parseInput(SetProductImagesSchema, req.body, 'body');
    res.json(images.setImages(pathParam(req, 'sku'), body.images));
  });
  return router;
}
