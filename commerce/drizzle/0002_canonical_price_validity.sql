PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_prices` (
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
	CONSTRAINT "prices_level" CHECK("__new_prices"."level" IN ('base', 'tier', 'agreement')),
	CONSTRAINT "prices_level_target" CHECK(("__new_prices"."level" = 'base' AND "__new_prices"."tier_code" IS NULL AND "__new_prices"."customer_id" IS NULL) OR ("__new_prices"."level" = 'tier' AND "__new_prices"."tier_code" IN ('retail', 'silver', 'gold') AND "__new_prices"."customer_id" IS NULL) OR ("__new_prices"."level" = 'agreement' AND "__new_prices"."customer_id" IS NOT NULL AND "__new_prices"."tier_code" IS NULL)),
	CONSTRAINT "prices_min_quantity" CHECK("__new_prices"."min_quantity" >= 1),
	CONSTRAINT "prices_amount" CHECK("__new_prices"."amount" >= 0),
	CONSTRAINT "prices_window" CHECK("__new_prices"."valid_from" IS NULL OR "__new_prices"."valid_to" IS NULL OR "__new_prices"."valid_from" < "__new_prices"."valid_to"),
	CONSTRAINT "prices_valid_from_canonical" CHECK("__new_prices"."valid_from" IS NULL OR (length("__new_prices"."valid_from") = 24 AND "__new_prices"."valid_from" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z' AND strftime('%Y-%m-%dT%H:%M:%fZ', "__new_prices"."valid_from") = "__new_prices"."valid_from")),
	CONSTRAINT "prices_valid_to_canonical" CHECK("__new_prices"."valid_to" IS NULL OR (length("__new_prices"."valid_to") = 24 AND "__new_prices"."valid_to" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z' AND strftime('%Y-%m-%dT%H:%M:%fZ', "__new_prices"."valid_to") = "__new_prices"."valid_to"))
);
--> statement-breakpoint
-- Hand-edited: existing bounds are rewritten to the canonical form (an unparseable one is kept, so the CHECK fails loudly instead of the bound silently becoming open).
INSERT INTO `__new_prices`("id", "product_id", "channel_code", "level", "tier_code", "customer_id", "min_quantity", "valid_from", "valid_to", "amount") SELECT "id", "product_id", "channel_code", "level", "tier_code", "customer_id", "min_quantity", coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', "valid_from"), "valid_from"), coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', "valid_to"), "valid_to"), "amount" FROM `prices`;--> statement-breakpoint
DROP TABLE `prices`;--> statement-breakpoint
ALTER TABLE `__new_prices` RENAME TO `prices`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `prices_channel_product_idx` ON `prices` (`channel_code`,`product_id`);--> statement-breakpoint
CREATE INDEX `prices_customer_idx` ON `prices` (`customer_id`);