import { AddItemSchema, CreateCartSchema, UpdateItemSchema } from '@keygate/contracts/commerce';
import { requireScope } from '@keygate/identity';
import { Router } from 'express';
import { presentPrice } from '../catalog/present.ts';
import { callerKeyId } from '../http/params.ts';
import { parseInput } from '../http/validate.ts';
import type { CartService, CartView } from './cart-service.ts';

export { AddItemSchema, CreateCartSchema, UpdateItemSchema };

/** The JSON shape of a cart; money in integer minor units of `currency`, never floats. */
export function presentCart(view: CartView) {
  const { cart, context } = view;
  return {
    id: cart.id,
    channel: cart.channelCode,
    currency: context.channel.currency,
    pricesIncludeVat: context.channel.pricesIncludeVat,
    customerId: cart.customerId,
    keyId: cart.keyId,
    lines: view.lines.map((line) => ({
      sku: line.sku,
      productId: line.productId,
      name: line.name,
      qty: line.qty,
      unitPrice: line.unitPrice && presentPrice(line.unitPrice),
      total: line.total,
    })),
    totals: view.totals,
    createdAt: cart.createdAt,
    updatedAt: cart.updatedAt,
    checkedOutAt: cart.checkedOutAt,
  };
}

/** Cart routes: create, add, change and remove items (order:rw), read (order:r); a cart is its key's only. */
export function createCartRouter(carts: CartService): Router {
  const router = Router();

  router.post('/v2/carts', requireScope('order:rw'), (req, res) => {
    const body = parseInput(CreateCartSchema, req.body, 'body');
    const keyId = callerKeyId(req);
    const view = carts.createCart({ channelCode: body.channel, customerId: body.customerId ?? null, keyId });
    res.status(201).location(`/v2/carts/${view.cart.id}`).json(presentCart(view));
  });

  router.post('/v2/carts/:id/items', requireScope('order:rw'), (req, res) => {
    const body = parseInput(AddItemSchema, req.body, 'body');
    res.json(presentCart(carts.addItem(String(req.params.id), callerKeyId(req), body)));
  });

  router.patch('/v2/carts/:id/items/:sku', requireScope('order:rw'), (req, res) => {
    const body = parseInput(UpdateItemSchema, req.body, 'body');
    const { id, sku } = req.params;
    res.json(presentCart(carts.setItemQuantity(String(id), callerKeyId(req), String(sku), body.qty)));
  });

  router.delete('/v2/carts/:id/items/:sku', requireScope('order:rw'), (req, res) => {
    const { id, sku } = req.params;
    res.json(presentCart(carts.removeItem(String(id), callerKeyId(req), String(sku))));
  });

  router.get('/v2/carts/:id', requireScope('order:r'), (req, res) => {
    res.json(presentCart(carts.getCart(String(req.params.id), callerKeyId(req))));
  });

  return router;
}
