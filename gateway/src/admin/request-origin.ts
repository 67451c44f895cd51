import type { TLSSocket } from 'node:tls';
import type { Request } from 'express';
import type { IpRules } from '../auth/ip-rules.ts';
import { forwardedRequestOf, isTrustedPeer } from '../http/forwarded.ts';

/** True when the socket peer is a configured trusted proxy (whose X-Forwarded-* headers count). */
function isFromTrustedProxy(req: Request, trustedProxies: IpRules): boolean {
  return isTrustedPeer(req.socket.remoteAddress, trustedProxies);
}

/** `https` when the request came over TLS, directly or (per X-Forwarded-Proto) through a trusted proxy. */
export function requestScheme(req: Request, trustedProxies: IpRules): 'http' | 'https' {
  if ((req.socket as TLSSocket).encrypted) return 'https';
  if (isFromTrustedProxy(req, trustedProxies)) {
    return forwardedRequestOf(req.headers).proto === 'https' ? 'https' : 'http';
  }
  return 'http';
}

/**
 * The request's own origin as the browser sees it (`scheme://host[:port]`, normalised like an
 * `Origin` header): Host, or X-Forwarded-Host from a trusted proxy. Null when the host is unusable.
 */
export function requestOrigin(req: Request, trustedProxies: IpRules): string | null {
  const forwardedHost = isFromTrustedProxy(req, trustedProxies)
    ? forwardedRequestOf(req.headers).host
    : undefined;
  const host = forwardedHost ?? req.headers.host;
  if (!host) return null;
  return normalizeOrigin(`${requestScheme(req, trustedProxies)}://${host}`);
}

/** `scheme://host[:port]` with the default port dropped and the host lower-cased; null when not an http(s) origin. */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '')) return null;
    return url.origin;
  } catch {
    return null;
  }
}
