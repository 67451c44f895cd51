-- Catalogue search by name or SKU (`q`). A trigram FTS5 index finds any substring of three or more
-- characters without scanning every product; it is an external-content index over `products`, kept
-- in step by triggers, so the product rows stay the only copy of the data.
CREATE VIRTUAL TABLE `product_search` USING fts5(`sku`, `name`, content='products', content_rowid='rowid', tokenize='trigram case_sensitive 0');
--> statement-breakpoint
INSERT INTO `product_search`(`product_search`) VALUES('rebuild');
--> statement-breakpoint
CREATE TRIGGER `products_search_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `product_search`(`rowid`, `sku`, `name`) VALUES (new.`rowid`, new.`sku`, new.`name`);
END;
--> statement-breakpoint
CREATE TRIGGER `products_search_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `product_search`(`product_search`, `rowid`, `sku`, `name`) VALUES ('delete', old.`rowid`, old.`sku`, old.`name`);
END;
--> statement-breakpoint
CREATE TRIGGER `products_search_update` AFTER UPDATE ON `products` BEGIN
  INSERT INTO `product_search`(`product_search`, `rowid`, `sku`, `name`) VALUES ('delete', old.`rowid`, old.`sku`, old.`name`);
  INSERT INTO `product_search`(`rowid`, `sku`, `name`) VALUES (new.`rowid`, new.`sku`, new.`name`);
END;
