import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
