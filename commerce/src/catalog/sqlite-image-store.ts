import type { CommerceDatabase } from '../db/database.ts';
import type { ProductImageStore } from './image-store.ts';

/**
 * Product images on the commerce database: the `images` JSON column of the product's row. A write
 * is an UPDATE of `products` on the app's connection, so the catalogue's answer cache sees it like
 * any other change of a product (http/response-cache.ts).
 */
export function createSqliteImageStore(db: CommerceDatabase): ProductImageStore {
  const update = db.sqlite.prepare('UPDATE products SET images = ? WHERE id = ?');
  return {
    writeImages: (productId, images) =>
      update.run(
        JSON.stringify(images.map(({ url, alt, width, height }) => ({ url, alt, width, height }))),
        productId,
      ).changes === 1,
  };
}
