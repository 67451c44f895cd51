CREATE TABLE `alert_deliveries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_type` text NOT NULL,
	`status` text NOT NULL,
	`next_attempt_at` integer,
	`lease_until` integer,
	`lease_token` text,
	`schedule_step` integer NOT NULL,
	`attempt_count` integer NOT NULL,
	`attempts` text NOT NULL,
	`created_at` text NOT NULL,
	`completed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_deliveries_id_unique` ON `alert_deliveries` (`id`);--> statement-breakpoint
CREATE INDEX `alert_deliveries_due_idx` ON `alert_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `alert_deliveries_endpoint_idx` ON `alert_deliveries` (`endpoint_id`,`seq`);--> statement-breakpoint
CREATE TABLE `alert_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`description` text NOT NULL,
	`event_types` text,
	`identity_ids` text,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` text,
	`failing_since` text,
	`created_by_key_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `alert_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`identity_id` text,
	`body` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_events_dedupe_key_unique` ON `alert_events` (`dedupe_key`);