import { z } from 'zod';

/** The most images a product holds. */
export const MAX_PRODUCT_IMAGES = 10;
/** The longest image URL accepted (characters). */
export const MAX_IMAGE_URL_LENGTH = 1024;
/** The longest alt text accepted (characters). */
export const MAX_IMAGE_ALT_LENGTH = 250;
/** The largest width or height an image may declare (pixels). */
export const MAX_IMAGE_DIMENSION = 10_000;
/** Where commerce serves its own images; a root-relative image URL must start here. */
export const MEDIA_PATH_PREFIX = '/v2/media/';

/** A path segment of a root-relative media URL: unreserved characters or %XX escapes, never `.` or `..`. */
const MEDIA_SEGMENT = /^(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})+$/;

/**
 * True for an image URL a browser can load safely from a product page: an absolute `https` URL
 * without credentials, or a root-relative path under `/v2/media/` (resolved against the API's own
 * origin, the gateway). Everything else (http, data:, javascript:, protocol-relative `//host`,
 * other paths) is refused.
 */
export function isImageUrl(value: string): boolean {
  if (value.startsWith(MEDIA_PATH_PREFIX)) {
    const segments = value.slice(MEDIA_PATH_PREFIX.length).split('/');
    return segments.every((s) => MEDIA_SEGMENT.test(s) && s !== '.' && s !== '..');
  }
  if (!value.startsWith('https://')) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

const URL_RULE = `url must be an https URL or a path under ${MEDIA_PATH_PREFIX} (at most ${MAX_IMAGE_URL_LENGTH} characters)`;
const ALT_RULE = `alt must be a string of 0..${MAX_IMAGE_ALT_LENGTH} characters ("" only for a decorative image)`;
const dimension = (name: string) => {
  const rule = `${name} must be an integer 1..${MAX_IMAGE_DIMENSION} (pixels)`;
  return z.number({ error: rule }).int(rule).min(1, rule).max(MAX_IMAGE_DIMENSION, rule);
};

/**
 * One product image. `alt` is required: it describes the image for people who cannot see it; the
 * empty string marks a purely decorative image (HTML's rule), which screen readers skip.
 * `width` and `height` are the intrinsic size, so pages can reserve the space before it loads.
 */
export const ProductImageSchema = z.strictObject(
  {
    url: z.string({ error: URL_RULE }).max(MAX_IMAGE_URL_LENGTH, URL_RULE).refine(isImageUrl, URL_RULE),
    alt: z
      .string({ error: ALT_RULE })
      .max(MAX_IMAGE_ALT_LENGTH, ALT_RULE)
      // Control characters would reach screen readers and HTML attributes as they are.
      .refine((alt) => !/\p{Cc}/u.test(alt), 'alt must not contain control characters'),
    width: dimension('width'),
    height: dimension('height'),
  },
  { error: 'each image must be a JSON object {url, alt, width, height}' },
);

export type ProductImage = z.infer<typeof ProductImageSchema>;

/** Body of PUT /v2/catalog/products/{sku}/images: the whole ordered list, replacing the old one. */
export const SetProductImagesSchema = z.strictObject(
  {
    images: z
      .array(ProductImageSchema, { error: 'images must be an array of {url, alt, width, height}' })
      .max(MAX_PRODUCT_IMAGES, `a product holds at most ${MAX_PRODUCT_IMAGES} images`),
  },
  { error: 'the body must be a JSON object {images}' },
);
