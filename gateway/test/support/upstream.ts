import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What an echo upstream saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
  bodySha256: string;
}

export interface TestUpstream {
  url: string;
  name: string;
  /** Every request except `/healthz`. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

async function listen(server: Server, sockets: Set<Socket>): Promise<string> {
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server, sockets: Set<Socket>) {
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/**
 * A real HTTP server on port 0 that answers JSON describing the request it received (headers,
 * body size and hash). `hang: true` accepts requests and never answers.
 */
export async function startEchoUpstream(
  name: string,
  options: { hang?: boolean } = {},
): Promise<TestUpstream> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    const hash = createHash('sha256');
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
      hash.update(chunk);
    });
    req.on('end', () => {
      const record = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bodyBytes,
        bodySha256: hash.digest('hex'),
      };
      seen.push(record);
      if (options.hang) return;
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': name });
      res.end(JSON.stringify({ upstream: name, ...record }));
    });
  });
  const url = await listen(server, sockets);
  return { url, name, seen, close: closer(server, sockets) };
}

/** A URL on 127.0.0.1 where nothing listens (a port bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  const sockets = new Set<Socket>();
  const url = await listen(server, sockets);
  await closer(server, sockets)();
  return url;
}
