import type { NextConfig } from 'next';

/**
 * Nothing here reaches outside the machine at build or run time: no remote images (nothing to
 * optimise, so sharp is never needed), no remote fonts, and telemetry stays off (see the scripts).
 * The Content-Security-Policy and HSTS are set per request in proxy.ts.
 */
/** Headers that never change, on every answer, static files included (docs/storefront.md). */
const FIXED_SECURITY_HEADERS = [
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  // Powerful features the shop never uses, refused for it and anything it embeds.
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()' },
  // For browsers without CSP level 2; `frame-ancestors 'none'` says the same to the others.
  { key: 'X-Frame-Options', value: 'DENY' },
];

const config: NextConfig = {
  // The workspace packages ship TypeScript sources (Node type stripping); Next compiles them.
  transpilePackages: ['@keygate/client', '@keygate/webhooks'],
  images: { unoptimized: true },
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [{ source: '/:path*', headers: FIXED_SECURITY_HEADERS }];
  },
};

export default config;
