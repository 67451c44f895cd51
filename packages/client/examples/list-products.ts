import type { KeygateClient } from '@keygate/client';

/**
 * Lists a channel's catalogue with the prices one customer pays (customer agreements, tier and
 * quantity prices resolved by the service), page by page. Money is in integer minor units.
 */
export async function listProductsForCustomer(
  client: KeygateClient,
  channel: string,
  customer: string,
  pageSize = 100,
) {
  const products = [];
  let cursor: string | undefined;
  do {
    const { data, error } = await client.GET('/v2/catalog/products', {
      params: { header: { 'X-Channel': channel }, query: { customer, limit: pageSize, cursor } },
    });
    if (error) throw new Error(`listing ${channel} failed: ${error.code} ${error.detail}`);
    products.push(...data.data);
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return products;
}
