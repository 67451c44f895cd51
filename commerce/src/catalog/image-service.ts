import type { Atomically } from '../atomically.ts';
import { CommerceError } from '../errors.ts';
import type { EventOutbox } from '../webhooks/outbox.ts';
import type { CatalogStore } from './catalog-store.ts';
import type { ProductImageStore } from './image-store.ts';
import { imagesOf } from './product-images.ts';
import type { ProductImage } from './types.ts';

/** A product's images as the images route answers them. */
export interface ProductImagesView {
  sku: string;
  images: ProductImage[];
}

export interface ProductImageService {
  /**
   * Replaces the ordered list of a product's images (PRODUCT_NOT_FOUND) and records
   * `product.updated` with the old and new lists; a list equal to the one shown now (the
   * generated image included) writes and records nothing.
   */
  setImages(sku: string, images: readonly ProductImage[]): ProductImagesView;
}

/** The same images in the same order, compared field by field. */
function isSameList(a: readonly ProductImage[], b: readonly ProductImage[]): boolean {
  return (
    a.length === b.length &&
    a.every((image, i) => {
      const other = b[i];
      return (
        other !== undefined &&
        image.url === other.url &&
        image.alt === other.alt &&
        image.width === other.width &&
        image.height === other.height
      );
    })
  );
}

/** Product images: each change with its event in one transaction. */
export function createProductImageService(deps: {
  catalog: CatalogStore;
  store: ProductImageStore;
  outbox: EventOutbox;
  atomically: Atomically;
}): ProductImageService {
  const { catalog, store, outbox, atomically } = deps;
  return {
    setImages(sku, images) {
      return atomically(() => {
        const product = catalog.findProductBySku(sku);
        if (!product) throw new CommerceError('PRODUCT_NOT_FOUND', `There is no product ${sku}.`);
        const old = imagesOf(product);
        const next = images.map(({ url, alt, width, height }) => ({ url, alt, width, height }));
        if (isSameList(old, next)) return { sku: product.sku, images: old };
        if (!store.writeImages(product.id, next)) {
          throw new Error(`product ${product.id} vanished inside its own transaction`);
        }
        outbox.record('product.updated', {
          productId: product.id,
          sku: product.sku,
          changed: ['images'],
          old: { images: old },
          new: { images: next },
        });
        return { sku: product.sku, images: next };
      });
    },
  };
}
