import type { Node } from './openapi-conformance.ts';
import type { System } from './system.ts';

/** Raw JSON of a call the test only needs for its data (not checked against the document). */
export async function fetchJson(
  system: System,
  key: string,
  path: string,
  init: RequestInit = {},
): Promise<Node> {
  const headers = { 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) };
  const res = await system.call(key, path, { ...init, headers });
  const text = await res.text();
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Node) : {};
}

/** The SKU of a product in stock on WEB_DE. */
export async function findSku(system: System, key: string): Promise<string> {
  const page = await fetchJson(system, key, '/v2/catalog/products?inStock=true&limit=1', {
    headers: { 'X-Channel': 'WEB_DE' },
  });
  const sku = (page.data as Array<{ sku: string }>)[0]?.sku;
  if (!sku) throw new Error('no product in stock on WEB_DE');
  return sku;
}

/** Causes one event of every subscribable type (customer, pricing, VAT, product, stock, order). */
export async function causeEveryEvent(system: System, key: string, sku: string): Promise<void> {
  const send = (method: string, path: string, body?: unknown) =>
    fetchJson(system, key, path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  const customer = await send('POST', '/v2/customers', { name: 'Events GmbH' });
  await send('PATCH', `/v2/customers/${customer.id}`, { name: 'Events AG', tier: 'gold' });
  const price = await send('POST', '/v2/prices', {
    sku,
    channel: 'WEB_DE',
    level: 'agreement',
    customerId: customer.id,
    amount: 999,
  });
  await send('PUT', `/v2/prices/${price.id}`, { amount: 899 });
  await send('DELETE', `/v2/prices/${price.id}`);
  // Twice: setting the rate it already has changes nothing and sends nothing.
  await send('PUT', '/v2/vat-rates/DE/zero', { rateBp: 1 });
  await send('PUT', '/v2/vat-rates/DE/zero', { rateBp: 0 });
  await send('PUT', `/v2/catalog/products/${sku}/images`, {
    images: [{ url: 'https://cdn.example.com/events.webp', alt: 'Events', width: 640, height: 480 }],
  });
  const stock = await send('GET', `/v2/stock/${sku}`);
  await send('PUT', `/v2/stock/${sku}`, { onHand: stock.allocated });
  await send('POST', `/v2/stock/${sku}:adjust`, { delta: 20 });
  const cart = await send('POST', '/v2/carts', { channel: 'WEB_DE' });
  await send('POST', `/v2/carts/${cart.id}/items`, { sku, qty: 1 });
  const order = await send('POST', `/v2/carts/${cart.id}:checkout`, {});
  await send('POST', `/v2/orders/${order.id}:cancel`, {});
}
