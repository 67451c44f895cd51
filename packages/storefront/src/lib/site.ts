/** The shop's name in titles and Open Graph (a page's openGraph replaces the layout's whole). */
export const SHOP_NAME = 'keygate shop';

/** What a header bag needs to offer: Next's `headers()` and the Fetch `Headers` both do. */
export interface HeaderBag {
  get(name: string): string | null;
}

/**
 * The shop's origin for absolute URLs (canonical links, sitemap, Open Graph): STOREFRONT_PUBLIC_URL
 * when set, else what the request says (the TLS proxy's X-Forwarded-Host and -Proto, then Host).
 * Set the variable in production: a crawler should see one origin whatever host it asked.
 */
export function siteOrigin(publicUrl: string | undefined, headers: HeaderBag): string {
  if (publicUrl) return new URL(publicUrl).origin;
  const first = (value: string | null) => value?.split(',')[0]?.trim() || null;
  const host = first(headers.get('x-forwarded-host')) ?? headers.get('host') ?? '127.0.0.1';
  const proto = first(headers.get('x-forwarded-proto')) === 'https' ? 'https' : 'http';
  return new URL(`${proto}://${host}`).origin;
}

/** STOREFRONT_IMAGE_ORIGINS as a list (validated at start by the environment schema). */
export function imageOriginsOf(raw: string | undefined): string[] {
  return raw ? raw.split(' ').filter(Boolean) : [];
}
