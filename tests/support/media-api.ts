import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The picture every product gets from the media API: a small SVG naming its SKU. */
export function productSvg(sku: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480" viewBox="0 0 640 480"><title>${sku}</title><rect width="640" height="480" fill="#dbe7f3"/><text x="320" y="250" font-size="48" text-anchor="middle" fill="#0a3d73">${sku}</text></svg>`;
}

export const IMAGE_SIZE = { width: 640, height: 480 };

/** The alt text the media API gives a product's picture. */
export const altOf = (name: string) => `Photo of ${name}`;

/**
 * Commerce as it is once products carry media (issue #46's `images: [{url, alt, width, height}]`),
 * for a gateway whose commerce does not send them yet: a real HTTP proxy in front of the gateway
 * that adds one root-relative `/media/products/<sku>.svg` image to every catalogue product it
 * relays and serves those files with an ETag and long-lived caching, as commerce is to.
 */
export async function startMediaApi(
  gatewayUrl: string,
): Promise<{ url: string; served: string[]; close: () => void }> {
  const served: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const media = /^\/media\/products\/([A-Za-z0-9_.-]+)\.svg$/.exec(req.url ?? '');
    if (media) {
      const body = productSvg(media[1] as string);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
      served.push(req.url as string);
      const headers = { ETag: etag, 'Cache-Control': 'public, max-age=31536000, immutable' };
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
      return void res.writeHead(200, { ...headers, 'Content-Type': 'image/svg+xml' }).end(body);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.entries(req.headers).filter(
      ([name]) => !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name),
    ) as Array<[string, string]>;
    const answer = await fetch(new URL(req.url ?? '/', gatewayUrl), {
      method: req.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    let body = Buffer.from(await answer.arrayBuffer());
    if (answer.ok && req.url?.startsWith('/v2/catalog/products'))
      body = Buffer.from(JSON.stringify(withImages(JSON.parse(body.toString()))));
    const kept: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'etag'].includes(name))
        kept[name] = value;
    });
    res.writeHead(answer.status, kept).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

type Product = { sku: string; name: string; images?: unknown };

function withImages(answer: { data: Product | Product[] }): unknown {
  const add = (product: Product) => ({
    ...product,
    images: [{ url: `/media/products/${product.sku}.svg`, alt: altOf(product.name), ...IMAGE_SIZE }],
  });
  return { ...answer, data: Array.isArray(answer.data) ? answer.data.map(add) : add(answer.data) };
}
