CREATE TABLE `cart_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cart_id` text NOT NULL,
	`product_id` text NOT NULL,
	`qty` integer NOT NULL,
	`added_at` text NOT NULL,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "cart_lines_qty" CHECK("cart_lines"."qty" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cart_lines_cart_product_idx` ON `cart_lines` (`cart_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `carts` (
	`id` text PRIMARY KEY NOT NULL,
	`channel_code` text NOT NULL,
	`customer_id` text,
	`key_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`channel_code`) REFERENCES `channels`(`code`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `carts_customer_idx` ON `carts` (`customer_id`);--> statement-breakpoint
CREATE TABLE `channels` (
	`code` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	`tax_country` text NOT NULL,
	`prices_include_vat` integer NOT NULL,
	CONSTRAINT "channels_code_format" CHECK("channels"."code" GLOB '[A-Z]*' AND "channels"."code" NOT GLOB '*[^A-Z0-9_]*'),
	CONSTRAINT "channels_currency_format" CHECK(length("channels"."currency") = 3),
	CONSTRAINT "channels_tax_country_format" CHECK(length("channels"."tax_country") = 2)
);
--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`tier` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "customers_tier" CHECK("customers"."tier" IN ('retail', 'silver', 'gold'))
);
--> statement-breakpoint
CREATE TABLE `prices` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`channel_code` text NOT NULL,
	`level` text NOT NULL,
	`tier_code` text,
	`customer_id` text,
	`min_quantity` integer DEFAULT 1 NOT NULL,
	`valid_from` text,
	`valid_to` text,
	`amount` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`channel_code`) REFERENCES `channels`(`code`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "prices_level" CHECK("prices"."level" IN ('base', 'tier', 'agreement')),
	CONSTRAINT "prices_level_target" CHECK(("prices"."level" = 'base' AND "prices"."tier_code" IS NULL AND "prices"."customer_id" IS NULL) OR ("prices"."level" = 'tier' AND "prices"."tier_code" IN ('retail', 'silver', 'gold') AND "prices"."customer_id" IS NULL) OR ("prices"."level" = 'agreement' AND "prices"."customer_id" IS NOT NULL AND "prices"."tier_code" IS NULL)),
	CONSTRAINT "prices_min_quantity" CHECK("prices"."min_quantity" >= 1),
	CONSTRAINT "prices_amount" CHECK("prices"."amount" >= 0),
	CONSTRAINT "prices_window" CHECK("prices"."valid_from" IS NULL OR "prices"."valid_to" IS NULL OR "prices"."valid_from" < "prices"."valid_to")
);
--> statement-breakpoint
CREATE INDEX `prices_channel_product_idx` ON `prices` (`channel_code`,`product_id`);--> statement-breakpoint
CREATE INDEX `prices_customer_idx` ON `prices` (`customer_id`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`sku` text NOT NULL,
	`name` text NOT NULL,
	`tax_class` text NOT NULL,
	CONSTRAINT "products_tax_class" CHECK("products"."tax_class" IN ('standard', 'reduced', 'zero'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_sku_unique` ON `products` (`sku`);--> statement-breakpoint
CREATE TABLE `stock` (
	`product_id` text PRIMARY KEY NOT NULL,
	`on_hand` integer DEFAULT 0 NOT NULL,
	`allocated` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "stock_on_hand" CHECK("stock"."on_hand" >= 0),
	CONSTRAINT "stock_allocated" CHECK("stock"."allocated" >= 0 AND "stock"."allocated" <= "stock"."on_hand")
);
--> statement-breakpoint
CREATE TABLE `vat_rates` (
	`country` text NOT NULL,
	`tax_class` text NOT NULL,
	`rate_bp` integer NOT NULL,
	PRIMARY KEY(`country`, `tax_class`),
	CONSTRAINT "vat_rates_rate" CHECK("vat_rates"."rate_bp" BETWEEN 0 AND 10000)
);
