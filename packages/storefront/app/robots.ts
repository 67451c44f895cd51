import type { MetadataRoute } from 'next';
import { requestOrigin } from '../src/lib/origin.ts';

export const dynamic = 'force-dynamic';

/** Crawl the catalogue; a visitor's cart and orders are nobody else's business. */
export default async function robots(): Promise<MetadataRoute.Robots> {
  return {
    rules: { userAgent: '*', allow: '/', disallow: ['/api/', '/*/cart', '/*/orders/'] },
    sitemap: `${await requestOrigin()}/sitemap.xml`,
  };
}
