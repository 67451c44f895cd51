CREATE TABLE `activity` (
	`id` text PRIMARY KEY NOT NULL,
	`key_id` text NOT NULL,
	`environment` text NOT NULL,
	`action` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`at` text NOT NULL,
	`source_ip` text,
	`before` text,
	`after` text,
	`details` text NOT NULL,
	FOREIGN KEY (`key_id`) REFERENCES `keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `activity_key_at_idx` ON `activity` (`key_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `activity_environment_at_idx` ON `activity` (`environment`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `activity_at_idx` ON `activity` (`at`,`id`);--> statement-breakpoint
CREATE TABLE `admin_users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`email_normalized` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_users_email_normalized_idx` ON `admin_users` (`email_normalized`);--> statement-breakpoint
CREATE TABLE `api_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`key_id` text NOT NULL,
	`secret_id` text NOT NULL,
	`at` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`latency_ms` real NOT NULL,
	`client_ip` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `api_logs_key_at_idx` ON `api_logs` (`key_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `api_logs_at_idx` ON `api_logs` (`at`);--> statement-breakpoint
CREATE TABLE `keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`environment` text NOT NULL,
	`scopes` text NOT NULL,
	`expires_at` text,
	`ip_allowlist` text NOT NULL,
	`rate_limit_per_minute` integer NOT NULL,
	`prefix` text NOT NULL,
	`status` text NOT NULL,
	`revoked_at` text,
	`reminders_sent` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`last_call_at` text,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `keys_environment_status_idx` ON `keys` (`environment`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`key_id` text NOT NULL,
	`lookup` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` text NOT NULL,
	`created_at` text NOT NULL,
	`closes_at` text,
	`closed_at` text,
	`closed_reason` text,
	`call_count` integer DEFAULT 0 NOT NULL,
	`last_call_at` text,
	FOREIGN KEY (`key_id`) REFERENCES `keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secrets_lookup_idx` ON `secrets` (`lookup`);--> statement-breakpoint
CREATE INDEX `secrets_key_idx` ON `secrets` (`key_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `usage_buckets` (
	`key_id` text NOT NULL,
	`secret_id` text NOT NULL,
	`minute` integer NOT NULL,
	`calls` integer NOT NULL,
	`errors_4xx` integer NOT NULL,
	`errors_5xx` integer NOT NULL,
	`latency_ms_sum` real NOT NULL,
	`latency_histogram` text NOT NULL,
	`last_call_at` text NOT NULL,
	PRIMARY KEY(`key_id`, `secret_id`, `minute`)
);
--> statement-breakpoint
CREATE INDEX `usage_buckets_key_minute_idx` ON `usage_buckets` (`key_id`,`minute`);