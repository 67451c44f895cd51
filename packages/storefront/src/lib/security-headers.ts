/**
 * The per-response security headers proxy.ts sets on every page: the Content-Security-Policy with
 * its nonce, and HSTS. The fixed ones are in next.config.ts (which cannot import TypeScript files
 * at run time). No `server-only` and no environment reads here: callers pass their inputs.
 */

/** Two years, the preload list's minimum; subdomains are the operator's call (docs/storefront.md). */
export const HSTS_VALUE = 'max-age=63072000';

export interface CspOptions {
  /** A fresh random value per response; only scripts carrying it run. */
  nonce: string;
  /** Origins images may come from besides the shop itself (STOREFRONT_IMAGE_ORIGINS). */
  imageOrigins: readonly string[];
  /** Served over https: insecure subresource URLs are upgraded. */
  isHttps: boolean;
  /** `next dev` only: React rebuilds server error stacks with eval there. */
  isDev: boolean;
}

/**
 * The Content-Security-Policy of a page. Scripts run only with the nonce ('strict-dynamic' lets
 * Next's own loader add its chunks); no 'unsafe-inline' for scripts or styles; the shop cannot be
 * framed, and forms post only to itself.
 */
export function contentSecurityPolicy(options: CspOptions): string {
  const nonce = `'nonce-${options.nonce}'`;
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${nonce} 'strict-dynamic'${options.isDev ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' ${nonce}`,
    ['img-src', "'self'", 'data:', ...options.imageOrigins].join(' '),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.isHttps ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}

/**
 * Whether the visitor reached the shop over https. The TLS proxy in front of `next start` says so
 * with `X-Forwarded-Proto`; STOREFRONT_PUBLIC_URL starting with https says so for every request.
 * A forged header can only add HSTS to a plain-http answer, which browsers ignore (RFC 6797 8.1).
 */
export function isHttpsRequest(forwardedProto: string | null, publicUrl: string | undefined): boolean {
  if (publicUrl?.startsWith('https:')) return true;
  return forwardedProto?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** A nonce: 128 random bits, base64 (what CSP's nonce-source grammar allows). */
export function createNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}
