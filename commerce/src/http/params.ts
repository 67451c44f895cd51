import type { IncomingMessage } from 'node:http';
import { getIdentity } from '@keygate/identity';
import type { Request } from 'express';

/**
 * A path parameter as a string. Express types a route's params from its pattern, which does not
 * see through escaped colons (`/:id\\:cancel`), so routes read them through this.
 */
export function pathParam(req: Request, name: string): string {
  return String((req.params as Record<string, unknown>)[name]);
}

/** The verified caller's key id; `requireScope` before every route guarantees an identity. */
export function callerKeyId(req: IncomingMessage): string {
  const identity = getIdentity(req);
  if (!identity) throw new Error('route reached without a verified identity');
  return identity.keyId;
}
