// The no-op upstream: a raw node:http server answering every request with a tiny JSON body over
// keep-alive (and /healthz, which the gateway's readiness check asks for, the same way).
//   node bench/servers/noop-upstream.ts PORT
import { createServer } from 'node:http';
import { exitWithParent, portArgument } from './lifeline.ts';

const BODY = Buffer.from('{"ok":true}');
const HEADERS = { 'content-type': 'application/json', 'content-length': String(BODY.length) };

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, HEADERS);
  res.end(BODY);
});
server.keepAliveTimeout = 65_000;
server.listen(portArgument(), '127.0.0.1');
exitWithParent();
