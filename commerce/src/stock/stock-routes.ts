import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import { z } from 'zod';
import type { CatalogService } from '../catalog/catalog-service.ts';
import { pathParam } from '../http/params.ts';
import { parseInput } from '../http/validate.ts';
import type { StockService } from './stock-service.ts';

/** The most units on hand a product may have (and the largest single adjustment). */
export const MAX_ON_HAND = 1_000_000_000;

/** Body of PUT /v2/stock/{sku}. */
export const SetStockSchema = z.strictObject(
  {
    onHand: z
      .number({ error: `onHand must be an integer 0..${MAX_ON_HAND}` })
      .int(`onHand must be an integer 0..${MAX_ON_HAND}`)
      .min(0, `onHand must be an integer 0..${MAX_ON_HAND}`)
      .max(MAX_ON_HAND, `onHand must be an integer 0..${MAX_ON_HAND}`),
  },
  { error: 'the body must be a JSON object {onHand}' },
);

/** Body of POST /v2/stock/{sku}:adjust. */
export const AdjustStockSchema = z.strictObject(
  {
    delta: z
      .number({ error: `delta must be a non-zero integer within ±${MAX_ON_HAND}` })
      .int(`delta must be a non-zero integer within ±${MAX_ON_HAND}`)
      .min(-MAX_ON_HAND, `delta must be a non-zero integer within ±${MAX_ON_HAND}`)
      .max(MAX_ON_HAND, `delta must be a non-zero integer within ±${MAX_ON_HAND}`)
      .refine((delta) => delta !== 0, 'delta must be a non-zero integer'),
  },
  { error: 'the body must be a JSON object {delta}' },
);

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
