import {
  CreateCustomerSchema,
  CustomerPricingQuerySchema,
  UpdateCustomerSchema,
} from '@keygate/contracts/commerce';
import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import { presentPrice } from '../catalog/present.ts';
import { parseInput } from '../http/validate.ts';
import { getCustomerPricing } from './customer-pricing.ts';
import type { CustomerService } from './customer-service.ts';

export { CreateCustomerSchema, CustomerPricingQuerySchema, UpdateCustomerSchema };

/**
 * Customer routes: POST /v2/customers and PATCH /v2/customers/{id} (customer:rw),
 * GET /v2/customers/{id} (customer:r) and GET /v2/customers/{id}/pricing (pricing:r).
 */
export function createCustomerRouter(deps: {
  store: CatalogStore;
  customers: CustomerService;
  clock: () => Date;
}): Router {
  const router = Router();
  router.post('/v2/customers', requireScope('customer:rw'), (req, res) => {
    const body = parseInput(CreateCustomerSchema, req.body, 'body');
    const customer = deps.customers.createCustomer(body);
    res.status(201).location(`/v2/customers/${customer.id}`).json(customer);
  });
  router.get('/v2/customers/:id', requireScope('customer:r'), (req, res) => {
    res.json(deps.customers.getCustomer(String(req.params.id)));
  });
  router.patch('/v2/customers/:id', requireScope('customer:rw'), (req, res) => {
    const body = parseInput(UpdateCustomerSchema, req.body, 'body');
    res.json(deps.customers.updateCustomer(String(req.params.id), body));
  });
  router.get('/v2/customers/:id/pricing', requireScope('pricing:r'), (req, res) => {
    const query = parseInput(CustomerPricingQuerySchema, req.query, 'query');
    const pricing = getCustomerPricing(deps, String(req.params.id), {
      limit: query.limit,
      cursor: query.cursor ?? null,
    });
    res.json({
      customer: pricing.customer,
      agreements: pricing.agreements,
      effectivePrices: pricing.channels.map(({ channel, prices }) => ({
        channel: channel.code,
        currency: channel.currency,
        pricesIncludeVat: channel.pricesIncludeVat,
        prices: prices.map((p) => ({ sku: p.sku, name: p.name, ...presentPrice(p.price) })),
      })),
      nextCursor: pricing.nextCursor,
    });
  });
  return router;
}
