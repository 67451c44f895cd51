import type { KeygateClient } from '@keygate/client';

/** Prints a page of a channel's catalogue with the prices one customer pays. */
export async function printCatalogue(client: KeygateClient) {
  const { data, error } = await client.GET('/v2/catalog/products', {
    params: { header: { 'X-Channel': 'WEB_DE' }, query: { customer: 'cus_0003', limit: 20 } },
  });
  if (error) {
    console.error(`${error.status} ${error.code}: ${error.detail}`); // a typed problem, see below
    return;
  }
  for (const product of data.data) {
    console.log(product.sku, product.name, product.price.gross, product.price.currency);
  }
}
