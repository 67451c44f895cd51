import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import type { CatalogService } from '../catalog/catalog-service.ts';

/** Stock routes: GET /v2/stock/{sku} → {sku, onHand, allocated, available}. */
export function createStockRouter(catalog: CatalogService): Router {
  const router = Router();
  router.get('/v2/stock/:sku', requireScope('stock:r'), (req, res) => {
    res.json(catalog.getStock(String(req.params.sku)));
  });
  return router;
}
