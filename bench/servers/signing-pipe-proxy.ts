// The raw pipe plus the one thing the design asks of every proxied request that the pipe lacks: a
// per-request signed identity assertion (X-Keygate-Identity, the gateway's own signer with a new key,
// off-thread while requests overlap, as the gateway does). Nothing else: no routing, no checks.
// The bench's signing reference: how much of the raw pipe the signature alone leaves.
//   node bench/servers/signing-pipe-proxy.ts PORT UPSTREAM_URL
import { randomUUID } from 'node:crypto';
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { createGatewayIdentitySigner } from '../../gateway/src/identity/identity-signer.ts';
import { generateIdentityKeyPair, type Identity } from '../../packages/identity/src/index.ts';
import { exitWithParent, portArgument } from './lifeline.ts';

const upstream = new URL(process.argv[3] ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
const { privateJwk } = await generateIdentityKeyPair();
const signer = createGatewayIdentitySigner({ privateJwk });
signer.warmUp();
let inFlight = 0;

function forward(req: IncomingMessage, res: ServerResponse, assertion: string): void {
  const proxied = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, 'x-keygate-identity': assertion },
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
}

const server = createServer((req, res) => {
  inFlight++;
  res.on('close', () => inFlight--);
  const identity: Identity = {
    keyId: 'key_signing_pipe',
    environment: 'test',
    scopes: ['article:r'],
    secretId: 'sec_signing_pipe',
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    requestId: randomUUID(),
  };
  if (inFlight === 1) return forward(req, res, signer.signNow(identity, 'upstream'));
  signer.signOffThread(identity, 'upstream', (error, assertion) => {
    if (error) {
      res.writeHead(500);
      res.end();
    } else forward(req, res, assertion);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(portArgument(), '127.0.0.1');
exitWithParent();
