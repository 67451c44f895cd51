import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy passed it on, and what the upstream answered it. */
export interface ProxiedCall {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  status: number;
  replayed: boolean;
  body: string;
  /** True when the proxy closed the client's connection instead of passing this answer on. */
  dropped: boolean;
}

/** A proxy between a client and the gateway that loses the answers `shouldDrop` picks. */
export interface DroppingProxy {
  url: string;
  calls: ProxiedCall[];
  close: () => Promise<void>;
}

/** Sends the request upstream and reads the whole answer. */
function forward(
  target: URL,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers: { ...headers, host: target.host } },
      async (answer) => {
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) });
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

/**
 * Starts an HTTP proxy to `target` on a free port. Every request reaches the upstream and its
 * answer is read in full (so the effect has happened); when `shouldDrop` says so, the proxy then
 * destroys the client's socket instead of answering: the client sees a lost connection. Each
 * answer passed on closes its connection.
 */
export async function startDroppingProxy(
  target: string,
  shouldDrop: (call: Omit<ProxiedCall, 'dropped'>, earlier: ProxiedCall[]) => boolean,
): Promise<DroppingProxy> {
  const base = new URL(target);
  const calls: ProxiedCall[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    try {
      const answer = await forward(base, method, path, req.headers, Buffer.concat(chunks));
      const key = req.headers['idempotency-key'];
      const call = {
        method,
        path,
        idempotencyKey: Array.isArray(key) ? key[0] : key,
        status: answer.status,
        replayed: answer.headers['idempotent-replayed'] === 'true',
        body: answer.body.toString('utf8'),
      };
      const dropped = shouldDrop(call, calls);
      calls.push({ ...call, dropped });
      if (dropped) {
        req.socket.destroy();
        return;
      }
      // A fresh connection per request: libcurl (PHP) resends by itself a request lost on a reused
      // connection, which would hide whether the client's own retry works.
      res.writeHead(answer.status, { ...answer.headers, connection: 'close' });
      res.end(answer.body);
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
