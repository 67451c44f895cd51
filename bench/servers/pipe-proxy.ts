// The baseline every Node proxy is held to: node:http with a keep-alive Agent, request piped to
// the upstream and the upstream's response piped back, nothing else.
//   node bench/servers/pipe-proxy.ts PORT UPSTREAM_URL
import { Agent, createServer, request } from 'node:http';
import { exitWithParent, portArgument } from './lifeline.ts';

const upstream = new URL(process.argv[3] ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });

const server = createServer((req, res) => {
  const proxied = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    },
    (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    },
  );
  proxied.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(proxied);
});
server.keepAliveTimeout = 65_000;
server.listen(portArgument(), '127.0.0.1');
exitWithParent();
