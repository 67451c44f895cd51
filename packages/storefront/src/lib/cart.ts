import 'server-only';
import type { components } from '@keygate/client';
import { cookies, headers } from 'next/headers';
import { ApiProblemError, call, keygate } from './api.ts';

export type Cart = components['schemas']['Cart'];
export type Order = components['schemas']['Order'];

/** One cart per channel (a cart's currency and VAT are its channel's); the cookie holds its id. */
export function cartCookieName(channel: string): string {
  return `kg_cart_${channel}`;
}
/** The orders this browser placed: only these are shown on the confirmation page. */
export const ORDERS_COOKIE = 'kg_orders';
const MAX_REMEMBERED_ORDERS = 10;

/** httpOnly (scripts never see the ids), SameSite=Lax, Secure when the shop is served over https. */
async function cookieOptions(maxAgeSeconds: number) {
  const proto = (await headers()).get('x-forwarded-proto');
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: proto === 'https',
    path: '/',
    maxAge: maxAgeSeconds,
  };
}

/** The open cart of this browser in the channel, or null (none yet, gone, or checked out). */
export async function readCart(channel: string): Promise<Cart | null> {
  const id = (await cookies()).get(cartCookieName(channel))?.value;
  if (!id) return null;
  try {
    const cart = await call(() => keygate().GET('/v2/carts/{id}', { params: { path: { id } } }));
    return cart.checkedOutAt === null ? cart : null;
  } catch (error) {
    if (error instanceof ApiProblemError && error.problem.code === 'CART_NOT_FOUND') return null;
    throw error;
  }
}

/** The browser's open cart for this channel and customer, created (and remembered) when needed. */
export async function openCart(channel: string, customer: string | null): Promise<Cart> {
  const existing = await readCart(channel);
  if (existing && existing.customerId === customer) return existing;
  const cart = await call(() =>
    keygate().POST('/v2/carts', { body: { channel, ...(customer ? { customerId: customer } : {}) } }),
  );
  (await cookies()).set(cartCookieName(channel), cart.id, await cookieOptions(60 * 60 * 24 * 30));
  return cart;
}

export async function addItem(cartId: string, sku: string, qty: number): Promise<Cart> {
  return call(() =>
    keygate().POST('/v2/carts/{id}/items', { params: { path: { id: cartId } }, body: { sku, qty } }),
  );
}

export async function setQuantity(cartId: string, sku: string, qty: number): Promise<Cart> {
  return call(() =>
    keygate().PATCH('/v2/carts/{id}/items/{sku}', { params: { path: { id: cartId, sku } }, body: { qty } }),
  );
}

export async function removeLine(cartId: string, sku: string): Promise<Cart> {
  return call(() =>
    keygate().DELETE('/v2/carts/{id}/items/{sku}', { params: { path: { id: cartId, sku } } }),
  );
}

/** Places the order, forgets the cart and remembers the order for its confirmation page. */
export async function checkout(channel: string, cartId: string): Promise<Order> {
  const order = await call(() =>
    keygate().POST('/v2/carts/{id}:checkout', { params: { path: { id: cartId } }, body: {} }),
  );
  const jar = await cookies();
  jar.delete(cartCookieName(channel));
  const placed = [order.id, ...rememberedOrders(jar.get(ORDERS_COOKIE)?.value)].slice(
    0,
    MAX_REMEMBERED_ORDERS,
  );
  jar.set(ORDERS_COOKIE, placed.join(','), await cookieOptions(60 * 60 * 24 * 30));
  return order;
}

function rememberedOrders(value: string | undefined): string[] {
  return (value ?? '').split(',').filter((id) => /^ord_[A-Za-z0-9_-]+$/.test(id));
}

/** The order if this browser placed it, else null (the key owns every order the shop places). */
export async function readOwnOrder(id: string): Promise<Order | null> {
  if (!rememberedOrders((await cookies()).get(ORDERS_COOKIE)?.value).includes(id)) return null;
  return call(() => keygate().GET('/v2/orders/{id}', { params: { path: { id } } }));
}
