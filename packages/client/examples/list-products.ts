import type { KeygateClient } from '@keygate/client';

/**
 * Lists a channel's whole catalogue with the prices one customer pays (customer agreements, tier
 * and quantity prices resolved by the service). `paginate` fetches page after page as the loop
 * asks for more; money is in integer minor units.
 */
export async function listProductsForCustomer(
  client: KeygateClient,
  channel: string,
  customer: string,
  pageSize = 100,
) {
  const products = [];
  const pages = client.paginate('/v2/catalog/products', {
    params: { header: { 'X-Channel': channel }, query: { customer, limit: pageSize } },
  });
  for await (const product of pages) products.push(product);
  return products;
}
