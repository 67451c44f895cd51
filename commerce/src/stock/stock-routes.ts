import { AdjustStockSchema, MAX_ON_HAND, SetStockSchema } from '@keygate/contracts/commerce';
import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import type { CatalogService } from '../catalog/catalog-service.ts';
import { pathParam } from '../http/params.ts';
import { parseInput } from '../http/validate.ts';
import type { StockService } from './stock-service.ts';

export { AdjustStockSchema, MAX_ON_HAND, SetStockSchema };

/**
 * Stock routes: GET /v2/stock/{sku} (stock:r); PUT /v2/stock/{sku} {onHand} and
 * POST /v2/stock/{sku}:adjust {delta} (stock:rw), answering {sku, onHand, allocated, available}.
 */
export function createStockRouter(deps: { catalog: CatalogService; stock: StockService }): Router {
  const router = Router();
  router.get('/v2/stock/:sku', requireScope('stock:r'), (req, res) => {
    res.json(deps.catalog.getStock(pathParam(req, 'sku')));
  });
  router.put('/v2/stock/:sku', requireScope('stock:rw'), (req, res) => {
    const body = parseInput(SetStockSchema, req.body, 'body');
    res.json(deps.stock.setStock(pathParam(req, 'sku'), body.onHand));
  });
  router.post('/v2/stock/:sku\\:adjust', requireScope('stock:rw'), (req, res) => {
    const body = parseInput(AdjustStockSchema, req.body, 'body');
    res.json(deps.stock.adjustStock(pathParam(req, 'sku'), body.delta));
  });
  return router;
}
