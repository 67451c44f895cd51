// The baseline every Node proxy is held to: node:http with a keep-alive Agent, request piped to
// the upstream and the upstream's response piped back, nothing else.
//   node bench/servers/pipe-proxy.ts PORT UPSTREAM_URL
import { createServer } from 'node:http';
import { exitWithParent, portArgument } from './lifeline.ts';
import { createRawPipe } from './raw-pipe.ts';

const forward = createRawPipe(new URL(process.argv[3] ?? ''));

const server = createServer((req, res) => forward(req, res, req.headers));
server.keepAliveTimeout = 65_000;
server.listen(portArgument(), '127.0.0.1');
exitWithParent();
