import type { ProductImage } from './types.ts';

/** Where product images are written; they are read with the product (CatalogStore). */
export interface ProductImageStore {
  /** Replaces a product's images in one statement; false when there is no such product. */
  writeImages(productId: string, images: readonly ProductImage[]): boolean;
}
