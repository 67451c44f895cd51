import type { TLSSocket } from 'node:tls';
import type { Request } from 'express';
import type { IpRules } from '../auth/ip-rules.ts';
import { type ForwardedRequest, forwardedRequestOf, isTrustedPeer } from '../http/forwarded.ts';

/** What a trusted proxy in front reported of the request; undefined unless the socket peer is one. */
function forwardedByTrustedProxy(req: Request, trustedProxies: IpRules): ForwardedRequest | undefined {
  return isTrustedPeer(req.socket.remoteAddress, trustedProxies)
    ? forwardedRequestOf(req.headers)
    : undefined;
}

/** `https` over TLS, or when the trusted proxy in front (if any) reported `https`. */
function schemeOf(req: Request, forwarded: ForwardedRequest | undefined): 'http' | 'https' {
  if ((req.socket as TLSSocket).encrypted) return 'https';
  return forwarded?.proto === 'https' ? 'https' : 'http';
}

/** `https` when the request came over TLS, directly or (per X-Forwarded-Proto) through a trusted proxy. */
export function requestScheme(req: Request, trustedProxies: IpRules): 'http' | 'https' {
  return schemeOf(req, forwardedByTrustedProxy(req, trustedProxies));
}

/**
 * The request's own origin as the browser sees it (`scheme://host[:port]`, normalised like an
 * `Origin` header): Host, or X-Forwarded-Host from a trusted proxy. Null when the host is unusable.
 */
export function requestOrigin(req: Request, trustedProxies: IpRules): string | null {
  const forwarded = forwardedByTrustedProxy(req, trustedProxies);
  const host = forwarded?.host ?? req.headers.host;
  if (!host) return null;
  return normalizeOrigin(`${schemeOf(req, forwarded)}://${host}`);
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
