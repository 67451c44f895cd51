// A service behind keygate. It never sees an API key: it trusts only the identity assertion the
// gateway signs for each request, and answers 401 to anything that did not come through the gateway.
import { createIdentityVerifier, getIdentity, requireIdentity, requireScope } from '@keygate/identity';
import express from 'express';

const port = Number(process.env.PORT ?? 4000);
// One process serves one environment: the route table sends live keys and test keys to different URLs.
const environment = process.env.SERVICE_ENV === 'test' ? 'test' : 'live';

const verifier = createIdentityVerifier({
  // The gateway's public keys; fetched on first use and cached, refetched when the gateway adds a key.
  keys: new URL(process.env.KEYGATE_JWKS_URL ?? 'http://127.0.0.1:8080/.well-known/jwks.json'),
  // The `audience` of this service's upstream in the gateway's route table.
  audience: 'reports',
});

const app = express();
// Signature, issuer, audience, expiry and environment (and method, path, once only, in request mode).
app.use(requireIdentity({ verifier, environment }));

app.get('/v2/reports/sales', requireScope('order:r'), (req, res) => {
  const identity = getIdentity(req);
  res.json({ keyId: identity?.keyId, environment: identity?.environment, scopes: identity?.scopes });
});

app.listen(port, '127.0.0.1', () => {
  console.log(`reports service (${environment}) on http://127.0.0.1:${port}`);
});
