import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import { presentPrice } from '../catalog/present.ts';
import { getCustomerPricing } from './customer-pricing.ts';

/** Customer routes: GET /v2/customers/{id}/pricing (pricing:r). */
export function createCustomerRouter(deps: { store: CatalogStore; clock: () => Date }): Router {
  const router = Router();
  router.get('/v2/customers/:id/pricing', requireScope('pricing:r'), (req, res) => {
    const pricing = getCustomerPricing(deps, String(req.params.id));
    res.json({
      customer: pricing.customer,
      agreements: pricing.agreements,
      effectivePrices: pricing.channels.map(({ channel, prices }) => ({
        channel: channel.code,
        currency: channel.currency,
        pricesIncludeVat: channel.pricesIncludeVat,
        prices: prices.map((p) => ({ sku: p.sku, name: p.name, ...presentPrice(p.price) })),
      })),
    });
  });
  return router;
}
