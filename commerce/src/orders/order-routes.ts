import { OrderActionSchema } from '@keygate/contracts/commerce';
import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import { callerKeyId, pathParam } from '../http/params.ts';
import { parseInput } from '../http/validate.ts';
import type { OrderService } from './order-service.ts';
import { presentOrder } from './order-types.ts';

export { OrderActionSchema };

/**
 * Order routes: POST /v2/carts/{id}:checkout (order:rw, 201), GET /v2/orders/{id} (order:r),
 * POST /v2/orders/{id}:cancel and :fulfil (order:rw). An order is its key's only, like a cart.
 */
export function createOrderRouter(orders: OrderService): Router {
  const router = Router();

  router.post('/v2/carts/:id\\:checkout', requireScope('order:rw'), (req, res) => {
    parseInput(OrderActionSchema, req.body, 'body');
    const view = orders.checkout(pathParam(req, 'id'), callerKeyId(req));
    res.status(201).location(`/v2/orders/${view.order.id}`).json(presentOrder(view));
  });

  router.get('/v2/orders/:id', requireScope('order:r'), (req, res) => {
    res.json(presentOrder(orders.getOrder(pathParam(req, 'id'), callerKeyId(req))));
  });

  for (const [action, status] of [
    ['cancel', 'cancelled'],
    ['fulfil', 'fulfilled'],
  ] as const) {
    router.post(`/v2/orders/:id\\:${action}`, requireScope('order:rw'), (req, res) => {
      parseInput(OrderActionSchema, req.body, 'body');
      res.json(presentOrder(orders.changeStatus(pathParam(req, 'id'), callerKeyId(req), status)));
    });
  }

  return router;
}
