// The raw pipe plus the one thing the design asks of every proxied request that the pipe lacks: a
// per-request signed identity assertion (X-Keygate-Identity, the gateway's own signer with a new key,
// off-thread while requests overlap, as the gateway does). Nothing else: no routing, no checks.
// The bench's signing reference: how much of the raw pipe the signature alone leaves.
//   node bench/servers/signing-pipe-proxy.ts PORT UPSTREAM_URL
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createGatewayIdentitySigner } from '../../gateway/src/identity/identity-signer.ts';
import { generateIdentityKeyPair, type Identity } from '../../packages/identity/src/index.ts';
import { exitWithParent, portArgument } from './lifeline.ts';
import { createRawPipe } from './raw-pipe.ts';

const pipe = createRawPipe(new URL(process.argv[3] ?? ''));
const { privateJwk } = await generateIdentityKeyPair();
const signer = createGatewayIdentitySigner({ privateJwk });
signer.warmUp();
let inFlight = 0;

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
  const forward = (assertion: string) => pipe(req, res, { ...req.headers, 'x-keygate-identity': assertion });
  if (inFlight === 1) return forward(signer.signNow(identity, 'upstream'));
  signer.signOffThread(identity, 'upstream', (error, assertion) => {
    if (error) {
      res.writeHead(500);
      res.end();
    } else forward(assertion);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(portArgument(), '127.0.0.1');
exitWithParent();
