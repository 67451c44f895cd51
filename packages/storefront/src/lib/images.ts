import { z } from 'zod';

/**
 * Product images as commerce describes them: an ordered list of `{url, alt, width, height}`.
 * Older APIs send no `images` at all; a product without them shows no picture.
 */
export const ApiImageSchema = z.object({
  url: z.string().min(1).max(2048),
  alt: z.string().max(500),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type ApiImage = z.infer<typeof ApiImageSchema>;

/** An image as the shop's HTML uses it: `src` is one the page's CSP lets the browser load. */
export interface ShownImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/** Where images may come from: the gateway (proxied through the shop) and any extra origins. */
export interface ImageSources {
  /** KEYGATE_BASE_URL: root-relative image URLs are paths on the gateway. */
  gatewayUrl: string;
  /** STOREFRONT_IMAGE_ORIGINS: https origins the CSP allows directly (a CDN). */
  imageOrigins: readonly string[];
}

/** The path prefix of the shop's own route that relays gateway media (app/images/[...path]). */
export const IMAGE_ROUTE = '/images';

/** Gateway paths the relay serves: media files only, plain segments, never `..`. */
const MEDIA_PATH = /^\/(?:v2\/)?media(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

/** True for a gateway path the shop relays (the route checks it again on every request). */
export function isMediaPath(path: string): boolean {
  return MEDIA_PATH.test(path) && !path.split('/').includes('..');
}

/**
 * The `src` the shop uses for an image URL from the API, or null when the browser may not load it:
 * on the gateway's origin (root-relative included) it goes through the shop's relay, so `img-src
 * 'self'` covers it and the gateway needs no CORS; on an allowed https origin it is kept.
 */
export function imageSource(url: string, sources: ImageSources): string | null {
  let resolved: URL;
  try {
    resolved = new URL(url, sources.gatewayUrl);
  } catch {
    return null;
  }
  if (resolved.origin === new URL(sources.gatewayUrl).origin) {
    return isMediaPath(resolved.pathname) ? `${IMAGE_ROUTE}${resolved.pathname}${resolved.search}` : null;
  }
  return resolved.protocol === 'https:' && sources.imageOrigins.includes(resolved.origin)
    ? resolved.href
    : null;
}

/**
 * The images of a product answer that the page can show, in the API's order. A malformed entry,
 * a repeat, or one from an origin the CSP does not allow is left out. An empty alt text is kept:
 * the API marks a decorative image so, and screen readers then skip it.
 */
export function shownImages(product: object, sources: ImageSources): ShownImage[] {
  // `images` is optional in the answer and may be missing from the client's types: read it untyped.
  const images = 'images' in product ? product.images : undefined;
  if (!Array.isArray(images)) return [];
  const shown: ShownImage[] = [];
  for (const entry of images) {
    const image = ApiImageSchema.safeParse(entry);
    if (!image.success) continue;
    const src = imageSource(image.data.url, sources);
    if (!src || shown.some((seen) => seen.src === src)) continue;
    const { alt, width, height } = image.data;
    shown.push({ src, alt: alt.trim(), width, height });
  }
  return shown;
}
