import { type KeygateClient, KeygateProblemError, unwrap } from '@keygate/client';

/**
 * Opens a cart for a customer in a channel and adds a line. Short stock is not an exception
 * here: the INSUFFICIENT_STOCK problem says how many are available, so the shop can offer those.
 */
export async function addToCart(
  client: KeygateClient,
  order: { channel: string; customerId: string; sku: string; qty: number },
) {
  const cart = await unwrap(
    client.POST('/v2/carts', { body: { channel: order.channel, customerId: order.customerId } }),
  );
  try {
    const filled = await unwrap(
      client.POST('/v2/carts/{id}/items', {
        params: { path: { id: cart.id } },
        body: { sku: order.sku, qty: order.qty },
      }),
    );
    return { cart: filled, added: true, available: null };
  } catch (error) {
    if (error instanceof KeygateProblemError && error.code === 'INSUFFICIENT_STOCK') {
      return { cart, added: false, available: Number(error.problem.available) };
    }
    throw error;
  }
}
