import type { IdentitySigner } from '@keygate/identity';
import type { Request, Response } from 'express';

/** Serves the public signing keys at `/.well-known/jwks.json`; private members never leave. */
export function createJwksHandler(signer: Pick<IdentitySigner, 'jwks'>) {
  const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth']);
  const body = JSON.stringify({
    keys: signer.jwks.keys.map((key) =>
      Object.fromEntries(Object.entries(key).filter(([name]) => !PRIVATE_MEMBERS.has(name))),
    ),
  });
  return function serveJwks(_req: Request, res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/jwk-set+json').send(body);
  };
}
