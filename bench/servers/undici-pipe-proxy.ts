// The raw pipe with undici's client instead of node:http's `request` (the client the gateway's data
// plane uses): node:http server, undici keep-alive pool to the upstream, request and response
// streamed, nothing else (502 when it fails). It shows how much of the gateway's margin over the raw
// pipe is the client library alone.
//   node bench/servers/undici-pipe-proxy.ts PORT UPSTREAM_URL
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { exitWithParent, portArgument } from './lifeline.ts';

/** The part of undici's dispatch API this pipe uses (undici is the gateway's dependency, not the bench's). */
interface Controller {
  pause(): void;
  resume(): void;
}
interface Handler {
  onRequestStart(): void;
  onResponseStart(controller: Controller, status: number, headers: Record<string, string | string[]>): void;
  onResponseData(controller: Controller, chunk: Buffer): void;
  onResponseEnd(): void;
  onResponseError(): void;
}
interface Pool {
  dispatch(
    options: { method: string; path: string; headers: string[]; body: IncomingMessage | null },
    handler: Handler,
  ): boolean;
}

const requireFromBench = createRequire(import.meta.url);
const { Pool } = requireFromBench('undici') as {
  Pool: new (origin: string, options: { connections: number; pipelining: number }) => Pool;
};

/** Hop-by-hop request headers undici writes itself (or refuses): not copied. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'expect', 'upgrade']);

const pool = new Pool(new URL(process.argv[3] ?? '').origin, { connections: 256, pipelining: 1 });

const server = createServer((req, res) => {
  const headers: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP.has(raw[i]!.toLowerCase())) headers.push(raw[i]!, raw[i + 1]!);
  }
  const hasBody =
    req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  const handler: Handler = {
    onRequestStart() {},
    onResponseStart(_controller, status, responseHeaders) {
      res.writeHead(status, responseHeaders);
    },
    onResponseData(controller, chunk) {
      if (!res.write(chunk)) {
        controller.pause();
        res.once('drain', () => controller.resume());
      }
    },
    onResponseEnd() {
      res.end();
    },
    onResponseError() {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    },
  };
  pool.dispatch(
    { method: req.method ?? 'GET', path: req.url ?? '/', headers, body: hasBody ? req : null },
    handler,
  );
});
server.keepAliveTimeout = 65_000;
server.listen(portArgument(), '127.0.0.1');
exitWithParent();
