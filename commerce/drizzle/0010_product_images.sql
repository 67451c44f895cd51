-- Product images: a JSON array of {url, alt, width, height} set through the API, or NULL for the
-- product's generated image. Added in place (no table rebuild): every existing row keeps NULL.
ALTER TABLE `products` ADD `images` text CONSTRAINT "products_images_json" CHECK("images" IS NULL OR json_type("images") = 'array');
--> statement-breakpoint
-- The search index holds only sku and name: a change of images need not rewrite its entry.
DROP TRIGGER `products_search_update`;
--> statement-breakpoint
CREATE TRIGGER `products_search_update` AFTER UPDATE OF `sku`, `name` ON `products` BEGIN
  INSERT INTO `product_search`(`product_search`, `rowid`, `sku`, `name`) VALUES ('delete', old.`rowid`, old.`sku`, old.`name`);
  INSERT INTO `product_search`(`rowid`, `sku`, `name`) VALUES (new.`rowid`, new.`sku`, new.`name`);
END;
