import type { IncomingHttpHeaders } from 'node:http';
import { type IpRules, parseAddress } from '../auth/ip-rules.ts';

/** The first value of a (possibly repeated, comma-separated) header, trimmed; undefined when absent or empty. */
export function firstHeaderValue(header: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(header) ? header.join(',') : header;
  const first = joined?.split(',')[0]?.trim();
  return first || undefined;
}

/** True when a socket peer is a configured trusted proxy, whose X-Forwarded-* headers count. */
export function isTrustedPeer(remoteAddress: string | undefined, trustedProxies: IpRules): boolean {
  if (trustedProxies.size === 0 || !remoteAddress) return false;
  const peer = parseAddress(remoteAddress);
  return peer !== null && trustedProxies.matches(peer);
}

/** What a proxy in front said of the original request: its scheme and host, each if it said so. */
export interface ForwardedRequest {
  proto: 'http' | 'https' | undefined;
  host: string | undefined;
}

/**
 * `X-Forwarded-Proto` (`http` or `https`, else ignored) and `X-Forwarded-Host`, first values, as a
 * proxy sets them. Only for a request whose socket peer is a configured trusted proxy: anyone else
 * could send them.
 */
export function forwardedRequestOf(headers: IncomingHttpHeaders): ForwardedRequest {
  const proto = firstHeaderValue(headers['x-forwarded-proto'])?.toLowerCase();
  return {
    proto: proto === 'https' || proto === 'http' ? proto : undefined,
    host: firstHeaderValue(headers['x-forwarded-host']),
  };
}
