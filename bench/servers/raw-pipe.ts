import {
  Agent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';

/**
 * The raw pipe to `upstream`: node:http with a keep-alive Agent, the request piped to the upstream
 * with `headers` and the upstream's response piped back, nothing else (502 when it fails).
 */
export function createRawPipe(
  upstream: URL,
): (req: IncomingMessage, res: ServerResponse, headers: IncomingHttpHeaders) => void {
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  return (req, res, headers) => {
    const proxied = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
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
  };
}
