import { MEDIA_PATH_PREFIX } from '@keygate/contracts/commerce';
import type { Product, ProductImage } from './types.ts';

/**
 * A product's images: the list set through the API, or, when none was set (every seeded product),
 * one generated image. The generated image is computed here from the product alone, so the seed
 * writes no image rows and the catalogue reads no extra table; commerce renders its SVG on request
 * (media/). Its URL carries everything the drawing depends on (the SKU and the name's initials),
 * so the answer at a URL never changes and can be cached as immutable.
 */

/** The intrinsic size of a generated image (a square SVG; it scales without loss). */
export const GENERATED_IMAGE_SIZE = 800;

/** Whether a character (a UTF-16 code unit) separates words: ASCII spaces and controls, NBSP. */
const isSpace = (c: number) => c <= 32 || c === 0xa0;

/**
 * Up to two letters or digits drawn on a generated image: the initials of the name's first words
 * (a word's first letter or digit, upper-cased; accents dropped). One pass over the characters,
 * since it runs for every product of every catalogue page computed.
 */
export function initialsOf(name: string): string {
  // ASCII names (every seeded one) need no Unicode decomposition.
  const text = /[\u0080-\uffff]/.test(name) ? name.normalize('NFKD') : name;
  let initials = '';
  let isWordStart = true;
  for (let i = 0; i < text.length && initials.length < 2; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      isWordStart = true;
      continue;
    }
    if (!isWordStart) continue;
    const upper = c >= 97 && c <= 122 ? c - 32 : c;
    if ((upper >= 65 && upper <= 90) || (upper >= 48 && upper <= 57)) {
      initials += String.fromCharCode(upper);
      isWordStart = false;
    }
  }
  return initials === '' ? 'P' : initials;
}

/** The root-relative URL of a product's generated image, e.g. `/v2/media/products/KG-00001/CO.svg`. */
export function generatedImageUrl(product: Pick<Product, 'sku' | 'name'>): string {
  return `${MEDIA_PATH_PREFIX}products/${encodeURIComponent(product.sku)}/${initialsOf(product.name)}.svg`;
}

/** The generated image of a product, described by its name. */
export function generatedImageOf(product: Pick<Product, 'sku' | 'name'>): ProductImage {
  return {
    url: generatedImageUrl(product),
    alt: product.name,
    width: GENERATED_IMAGE_SIZE,
    height: GENERATED_IMAGE_SIZE,
  };
}

/** The images a product shows, in order: the ones set through the API, else its generated one. */
export function imagesOf(product: Pick<Product, 'sku' | 'name' | 'images'>): ProductImage[] {
  return product.images ?? [generatedImageOf(product)];
}
