// Express 5 with one http-proxy-middleware (keep-alive agent) and nothing else: the ceiling of a
// data plane built on these two libraries, before any gateway code. Its share of the raw pipe's
// throughput stayed below the 0.85 target for the whole gateway (bench/RESULTS.md), so the gateway's
// data plane runs on a node:http server with undici's client (gateway/src/data-plane), and
// http-proxy-middleware is a dependency of the bench alone, for this comparison.
//   node bench/servers/express-hpm-proxy.ts PORT UPSTREAM_URL
import { Agent } from 'node:http';
import { createRequire } from 'node:module';
import { exitWithParent, portArgument } from './lifeline.ts';

type Middleware = (req: unknown, res: unknown, next: () => void) => void;
interface ExpressApp {
  disable(setting: string): void;
  set(setting: string, value: unknown): void;
  use(handler: Middleware): void;
  listen(port: number, host: string): { keepAliveTimeout: number };
}

const requireFromBench = createRequire(import.meta.url);
const express = requireFromBench('express') as () => ExpressApp;
const { createProxyMiddleware } = requireFromBench('http-proxy-middleware') as {
  createProxyMiddleware(options: Record<string, unknown>): Middleware;
};

const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(createProxyMiddleware({ target: process.argv[3], changeOrigin: true, xfwd: false, agent }));
const server = app.listen(portArgument(), '127.0.0.1');
server.keepAliveTimeout = 65_000;
exitWithParent();
