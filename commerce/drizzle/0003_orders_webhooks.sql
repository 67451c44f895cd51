CREATE TABLE `order_lines` (
	`order_id` text NOT NULL,
	`line_no` integer NOT NULL,
	`product_id` text NOT NULL,
	`sku` text NOT NULL,
	`name` text NOT NULL,
	`qty` integer NOT NULL,
	`unit_net` integer NOT NULL,
	`unit_vat` integer NOT NULL,
	`unit_gross` integer NOT NULL,
	`vat_rate_bp` integer NOT NULL,
	`price_source` text NOT NULL,
	`net` integer NOT NULL,
	`vat` integer NOT NULL,
	`gross` integer NOT NULL,
	PRIMARY KEY(`order_id`, `line_no`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "order_lines_qty" CHECK("order_lines"."qty" >= 1)
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`cart_id` text NOT NULL,
	`key_id` text NOT NULL,
	`channel_code` text NOT NULL,
	`customer_id` text,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`net` integer NOT NULL,
	`vat` integer NOT NULL,
	`gross` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_code`) REFERENCES `channels`(`code`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "orders_status" CHECK("orders"."status" IN ('placed', 'cancelled', 'fulfilled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_cart_id_unique` ON `orders` (`cart_id`);--> statement-breakpoint
CREATE INDEX `orders_key_idx` ON `orders` (`key_id`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` text NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`webhook_timestamp` integer NOT NULL,
	`status_code` integer,
	`duration_ms` integer,
	`response` text,
	`response_truncated` integer DEFAULT false NOT NULL,
	`error` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`status` text NOT NULL,
	`next_attempt_at` text,
	`schedule_step` integer DEFAULT 0 NOT NULL,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webhook_deliveries_status" CHECK("webhook_deliveries"."status" IN ('pending', 'delivering', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_id_unique` ON `webhook_deliveries` (`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`seq`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_queue_idx` ON `webhook_deliveries` (`endpoint_id`,`seq`) WHERE "webhook_deliveries"."status" IN ('pending', 'delivering');--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`event_types` text,
	`enabled` integer DEFAULT true NOT NULL,
	`disabled_reason` text,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` text,
	`failing_since` text,
	`created_by_key_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "webhook_endpoints_disabled_reason" CHECK(("webhook_endpoints"."enabled" = 1 AND "webhook_endpoints"."disabled_reason" IS NULL) OR ("webhook_endpoints"."enabled" = 0 AND "webhook_endpoints"."disabled_reason" IN ('manual', 'gone', 'failing'))),
	CONSTRAINT "webhook_endpoints_previous_secret" CHECK(("webhook_endpoints"."previous_secret" IS NULL) = ("webhook_endpoints"."previous_secret_expires_at" IS NULL))
);
--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`body` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_events_created_idx` ON `webhook_events` (`created_at`);--> statement-breakpoint
ALTER TABLE `carts` ADD `checked_out_at` text;