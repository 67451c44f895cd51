import {
  AddItemSchema,
  CreateCartSchema,
  OrderActionSchema,
  UpdateItemSchema,
} from '@keygate/contracts/commerce';
import type { OperationSpec } from '../operation.ts';
import { requestComponent } from '../registries.ts';
import { CartSchema, OrderSchema } from '../schemas/carts.ts';
import { proxiedErrors } from './errors.ts';

const CreateCartRequest = requestComponent('CreateCartRequest', CreateCartSchema);
const AddCartItemRequest = requestComponent('AddCartItemRequest', AddItemSchema);
const UpdateCartItemRequest = requestComponent('UpdateCartItemRequest', UpdateItemSchema);
const OrderActionRequest = requestComponent('OrderActionRequest', OrderActionSchema);

const OWNED = ' A cart or order belongs to the key that created it; for any other key it answers 404.';

/** Carts, checkout and orders (scope order:r / order:rw). */
export const CART_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'POST',
    path: '/v2/carts',
    operationId: 'createCart',
    tag: 'Carts',
    kind: 'proxied',
    summary: 'Create a cart',
    description: `An empty cart in a channel, optionally for a customer (whose prices then apply).${OWNED}`,
    body: { schema: CreateCartRequest, required: true },
    success: { status: 201, description: 'The new cart.', schema: CartSchema, location: true },
    errors: proxiedErrors(['UNKNOWN_CHANNEL', 'UNKNOWN_CUSTOMER'], { body: true }),
  },
  {
    method: 'GET',
    path: '/v2/carts/{id}',
    operationId: 'getCart',
    tag: 'Carts',
    kind: 'proxied',
    summary: 'Get a cart, priced now',
    description: `Lines priced at their quantity now, totals in integer minor units.${OWNED}`,
    success: { status: 200, description: 'The cart.', schema: CartSchema },
    errors: proxiedErrors(['CART_NOT_FOUND']),
  },
  {
    method: 'POST',
    path: '/v2/carts/{id}/items',
    operationId: 'addCartItem',
    tag: 'Carts',
    kind: 'proxied',
    summary: 'Add a product to a cart',
    description:
      'Adds `qty` units (1..999; a line holds at most 999, a cart at most 100 products). Refused with the quantity available when stock is short; a refused add leaves the cart unchanged.',
    body: { schema: AddCartItemRequest, required: true },
    success: { status: 200, description: 'The cart.', schema: CartSchema },
    errors: proxiedErrors(
      [
        'CART_NOT_FOUND',
        'UNKNOWN_PRODUCT',
        'NOT_SOLD_IN_CHANNEL',
        'LINE_QUANTITY_LIMIT',
        'CART_LINE_LIMIT',
        'INSUFFICIENT_STOCK',
        'CART_CHECKED_OUT',
      ],
      { body: true },
    ),
  },
  {
    method: 'PATCH',
    path: '/v2/carts/{id}/items/{sku}',
    operationId: 'updateCartItem',
    tag: 'Carts',
    kind: 'proxied',
    summary: 'Change the quantity of a cart line',
    description:
      'Sets the line of `sku` to `qty` units (1..999; DELETE the line to remove it). Refused with the quantity available when stock is short; a refused change leaves the cart unchanged.',
    body: { schema: UpdateCartItemRequest, required: true },
    success: { status: 200, description: 'The cart.', schema: CartSchema },
    errors: proxiedErrors(
      ['CART_NOT_FOUND', 'CART_LINE_NOT_FOUND', 'INSUFFICIENT_STOCK', 'CART_CHECKED_OUT'],
      {
        body: true,
      },
    ),
  },
  {
    method: 'DELETE',
    path: '/v2/carts/{id}/items/{sku}',
    operationId: 'removeCartItem',
    tag: 'Carts',
    kind: 'proxied',
    summary: 'Remove a line from a cart',
    description: 'Removes the line of `sku` and answers the cart priced without it.',
    success: { status: 200, description: 'The cart.', schema: CartSchema },
    errors: proxiedErrors(['CART_NOT_FOUND', 'CART_LINE_NOT_FOUND', 'CART_CHECKED_OUT']),
  },
  {
    method: 'POST',
    path: '/v2/carts/{id}:checkout',
    operationId: 'checkoutCart',
    tag: 'Orders',
    kind: 'proxied',
    summary: 'Check a cart out into an order',
    description:
      'Prices the cart and allocates every line atomically (all lines or none); emits `order.created` and `stock.*` webhooks. Send no body or `{}`.',
    body: { schema: OrderActionRequest, required: false },
    success: { status: 201, description: 'The placed order.', schema: OrderSchema, location: true },
    errors: proxiedErrors(['CART_NOT_FOUND', 'CART_EMPTY', 'CART_CHECKED_OUT', 'INSUFFICIENT_STOCK'], {
      body: true,
    }),
  },
  {
    method: 'GET',
    path: '/v2/orders/{id}',
    operationId: 'getOrder',
    tag: 'Orders',
    kind: 'proxied',
    summary: 'Get an order',
    description: `The order with the unit prices it was sold at.${OWNED}`,
    success: { status: 200, description: 'The order.', schema: OrderSchema },
    errors: proxiedErrors(['ORDER_NOT_FOUND']),
  },
  {
    method: 'POST',
    path: '/v2/orders/{id}:cancel',
    operationId: 'cancelOrder',
    tag: 'Orders',
    kind: 'proxied',
    summary: 'Cancel a placed order',
    description: 'placed → cancelled; the allocated stock is released. Send no body or `{}`.',
    body: { schema: OrderActionRequest, required: false },
    success: { status: 200, description: 'The cancelled order.', schema: OrderSchema },
    errors: proxiedErrors(['ORDER_NOT_FOUND', 'ORDER_STATUS_CONFLICT'], { body: true }),
  },
  {
    method: 'POST',
    path: '/v2/orders/{id}:fulfil',
    operationId: 'fulfilOrder',
    tag: 'Orders',
    kind: 'proxied',
    summary: 'Fulfil a placed order',
    description: 'placed → fulfilled; on hand and allocated both drop. Send no body or `{}`.',
    body: { schema: OrderActionRequest, required: false },
    success: { status: 200, description: 'The fulfilled order.', schema: OrderSchema },
    errors: proxiedErrors(['ORDER_NOT_FOUND', 'ORDER_STATUS_CONFLICT'], { body: true }),
  },
];
