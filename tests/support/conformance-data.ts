import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Node } from './openapi-conformance.ts';
import type { System } from './system.ts';

/** One webhook delivery as the receiver got it. */
export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A running receiver: its URL, what it got so far, and how to stop it. */
export interface WebhookReceiver {
  url: string;
  received: Delivery[];
  close: () => void;
}

/** A loopback receiver that records every webhook delivery and acknowledges it with 204. */
export async function startReceiver(): Promise<WebhookReceiver> {
  const received: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => server.close() };
}

/** The event type of a delivery. */
export function typeOf(delivery: Delivery): string {
  return (JSON.parse(delivery.body) as { type: string }).type;
}

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

/** Causes one event of every subscribable type (customer, pricing, VAT, stock, order). */
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
  const stock = await send('GET', `/v2/stock/${sku}`);
  await send('PUT', `/v2/stock/${sku}`, { onHand: stock.allocated });
  await send('POST', `/v2/stock/${sku}:adjust`, { delta: 20 });
  const cart = await send('POST', '/v2/carts', { channel: 'WEB_DE' });
  await send('POST', `/v2/carts/${cart.id}/items`, { sku, qty: 1 });
  const order = await send('POST', `/v2/carts/${cart.id}:checkout`, {});
  await send('POST', `/v2/orders/${order.id}:cancel`, {});
}
