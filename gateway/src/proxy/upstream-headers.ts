import type { IncomingHttpHeaders } from 'node:http';
import {
  ENVIRONMENT_HEADER,
  IDENTITY_HEADER,
  IDENTITY_HEADER_PREFIX,
  type IdentitySigner,
  KEY_ID_HEADER,
  SCOPES_HEADER,
} from '@keygate/identity';
import type { Principal } from '../auth/principal.ts';

/** Client headers never passed upstream: credentials, and anything claiming identity, ids or a forwarding chain. */
const STRIPPED = new Set([
  'authorization',
  'proxy-authorization',
  'x-request-id',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  'forwarded',
]);

/** Removes every client-sent identity header (`x-keygate-*`), credentials and forwarding headers in place. */
export function stripClientHeaders(headers: IncomingHttpHeaders): void {
  for (const name of Object.keys(headers)) {
    if (STRIPPED.has(name) || name.startsWith(IDENTITY_HEADER_PREFIX)) delete headers[name];
  }
}

export interface UpstreamRequest {
  method: string;
  /** Path and query exactly as forwarded (the assertion is bound to it). */
  path: string;
  host: string | undefined;
  encrypted: boolean;
}

/**
 * Replaces the client's headers with the gateway's: the signed assertion (`X-Keygate-Identity`),
 * plain `X-Keygate-Key-Id` / `-Environment` / `-Scopes` (comma-separated), `X-Request-Id`, and an
 * `X-Forwarded-For` holding only the resolved client address.
 */
export async function setUpstreamHeaders(
  headers: IncomingHttpHeaders,
  principal: Principal,
  request: UpstreamRequest,
  signer: IdentitySigner,
  audience: string,
): Promise<void> {
  const { key, secret, requestId, clientIp } = principal;
  const assertion = await signer.sign(
    {
      keyId: key.id,
      environment: key.environment,
      scopes: key.scopes,
      secretId: secret.id,
      method: request.method,
      path: request.path,
      requestId,
    },
    audience,
  );
  stripClientHeaders(headers);
  headers[IDENTITY_HEADER] = assertion;
  headers[KEY_ID_HEADER] = key.id;
  headers[ENVIRONMENT_HEADER] = key.environment;
  headers[SCOPES_HEADER] = key.scopes.join(',');
  headers['x-request-id'] = requestId;
  headers['x-forwarded-for'] = clientIp;
  headers['x-forwarded-proto'] = request.encrypted ? 'https' : 'http';
  if (request.host) headers['x-forwarded-host'] = request.host;
}
