import type { NextConfig } from 'next';

/**
 * Nothing here reaches outside the machine at build or run time: no remote images (nothing to
 * optimise, so sharp is never needed), no remote fonts, and telemetry stays off (see the scripts).
 */
const config: NextConfig = {
  // The workspace packages ship TypeScript sources (Node type stripping); Next compiles them.
  transpilePackages: ['@keygate/client', '@keygate/webhooks'],
  images: { unoptimized: true },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default config;
