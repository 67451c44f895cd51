// A bare Express 5 app with one JSON route: what commerce's catalogue and GraphQL are compared with.
// Every GET answers the same small JSON document (so the gateway can route to it like to commerce).
//   node bench/servers/bare-express.ts PORT
import { createRequire } from 'node:module';
import { exitWithParent, portArgument } from './lifeline.ts';

type Handler = (req: unknown, res: { json(body: unknown): void }) => void;
interface ExpressApp {
  disable(setting: string): void;
  get(path: string | RegExp, handler: Handler): void;
  listen(port: number, host: string): { keepAliveTimeout: number };
}

// Loaded through require: the bench declares express but not its types; ExpressApp above is all it uses.
const requireFromBench = createRequire(import.meta.url);
const express = requireFromBench('express') as () => ExpressApp;

const app = express();
app.disable('x-powered-by');
app.get(/.*/, (_req, res) => {
  res.json({ data: [{ sku: 'KG-00001', name: 'Bench product', price: { amount: 1999, currency: 'EUR' } }] });
});
const server = app.listen(portArgument(), '127.0.0.1');
server.keepAliveTimeout = 65_000;
exitWithParent();
