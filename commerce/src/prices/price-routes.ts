import {
  CreatePriceSchema,
  MAX_MIN_QUANTITY,
  MAX_PRICE_AMOUNT,
  ReplacePriceSchema,
  TAX_CLASSES,
  VatRateParamsSchema,
  VatRateSchema,
} from '@keygate/contracts/commerce';
import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import { parseInput } from '../http/validate.ts';
import type { PriceService } from './price-service.ts';

export {
  CreatePriceSchema,
  MAX_MIN_QUANTITY,
  MAX_PRICE_AMOUNT,
  ReplacePriceSchema,
  TAX_CLASSES,
  VatRateParamsSchema,
  VatRateSchema,
};

/**
 * Price administration: POST /v2/prices, PUT and DELETE /v2/prices/{id} and
 * PUT /v2/vat-rates/{country}/{taxClass} (pricing:rw); GET /v2/prices/{id} (pricing:r).
 */
export function createPriceRouter(prices: PriceService): Router {
  const router = Router();
  router.post('/v2/prices', requireScope('pricing:rw'), (req, res) => {
    const price = prices.createPrice(parseInput(CreatePriceSchema, req.body, 'body'));
    res.status(201).location(`/v2/prices/${price.id}`).json(price);
  });
  router.get('/v2/prices/:id', requireScope('pricing:r'), (req, res) => {
    res.json(prices.getPrice(String(req.params.id)));
  });
  router.put('/v2/prices/:id', requireScope('pricing:rw'), (req, res) => {
    const terms = parseInput(ReplacePriceSchema, req.body, 'body');
    res.json(prices.replacePrice(String(req.params.id), terms));
  });
  router.delete('/v2/prices/:id', requireScope('pricing:rw'), (req, res) => {
    prices.deletePrice(String(req.params.id));
    res.status(204).end();
  });
  router.put('/v2/vat-rates/:country/:taxClass', requireScope('pricing:rw'), (req, res) => {
    const params = parseInput(VatRateParamsSchema, req.params, 'params');
    const body = parseInput(VatRateSchema, req.body, 'body');
    res.json(prices.setVatRate(params.country, params.taxClass, body.rateBp));
  });
  return router;
}
