import { type NextRequest, NextResponse } from 'next/server';
import {
  contentSecurityPolicy,
  createNonce,
  HSTS_VALUE,
  isHttpsRequest,
} from './src/lib/security-headers.ts';
import { imageOriginsOf } from './src/lib/site.ts';

/**
 * Runs before every page: a fresh nonce per response in the Content-Security-Policy. Next reads
 * the nonce from the request's CSP header and puts it on its own scripts; the shop's JSON-LD reads
 * it from `x-nonce`. HSTS is added when the visitor came over https. The fixed headers
 * (Referrer-Policy, nosniff, …) are in next.config.ts, so static files get them too.
 */
export function proxy(request: NextRequest): NextResponse {
  const nonce = createNonce();
  const isHttps = isHttpsRequest(request.headers.get('x-forwarded-proto'), process.env.STOREFRONT_PUBLIC_URL);
  const csp = contentSecurityPolicy({
    nonce,
    imageOrigins: imageOriginsOf(process.env.STOREFRONT_IMAGE_ORIGINS),
    isHttps,
    isDev: process.env.NODE_ENV === 'development',
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  if (isHttps) response.headers.set('Strict-Transport-Security', HSTS_VALUE);
  return response;
}

export const config = {
  // Not the build's static files, the image relay (its own CSP) or the webhook receiver (no page).
  matcher: ['/((?!_next/static|_next/image|images/|api/).*)'],
};
