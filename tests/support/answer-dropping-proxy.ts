import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy forwarded that matched its `drop` rule, and what the upstream answered to it. */
export interface ForwardedCall {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** True when the client never saw this answer: the proxy closed the connection instead. */
  dropped: boolean;
}

export interface AnswerDroppingProxy {
  url: string;
  /** Every forwarded request that matched `drop`, in order. */
  calls: ForwardedCall[];
  close: () => Promise<void>;
}

/**
 * An HTTP proxy to `upstream` that forwards every request, and for the first `times` requests matching `drop` lets
 * the upstream answer in full (so the effect happened) and then destroys the client's connection without
 * answering: the lost answer after a timeout or a network fault that an Idempotency-Key makes safe to retry.
 */
export async function startAnswerDroppingProxy(options: {
  upstream: string;
  drop: (method: string, path: string) => boolean;
  times?: number;
}): Promise<AnswerDroppingProxy> {
  const upstream = new URL(options.upstream);
  const calls: ForwardedCall[] = [];
  let toDrop = options.times ?? 1;
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method,
        path,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        if (!options.drop(method, path)) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const dropped = toDrop > 0;
          if (dropped) toDrop--;
          const body = Buffer.concat(chunks);
          const key = req.headers['idempotency-key'];
          calls.push({
            method,
            path,
            idempotencyKey: Array.isArray(key) ? key[0] : key,
            status: answer.statusCode ?? 0,
            headers: answer.headers,
            body: body.toString('utf8'),
            dropped,
          });
          if (dropped) {
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(body);
        });
      },
    );
    forward.on('error', () => req.socket.destroy());
    req.pipe(forward);
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
