CREATE TABLE `budget_counters` (
	`subject` text NOT NULL,
	`name` text NOT NULL,
	`window_start` integer NOT NULL,
	`used` integer NOT NULL,
	PRIMARY KEY(`subject`, `name`, `window_start`)
);
--> statement-breakpoint
CREATE TABLE `budget_usage` (
	`subject` text NOT NULL,
	`day` text NOT NULL,
	`outcome` text NOT NULL,
	`calls` integer NOT NULL,
	`cost` integer NOT NULL,
	PRIMARY KEY(`subject`, `day`, `outcome`)
);
--> statement-breakpoint
CREATE TABLE `credit_balances` (
	`subject` text PRIMARY KEY NOT NULL,
	`remaining` integer NOT NULL,
	`refilled_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `identities` (
	`id` text PRIMARY KEY NOT NULL,
	`external_id` text NOT NULL,
	`environment` text NOT NULL,
	`plan_id` text,
	`meta` text NOT NULL,
	`limits` text NOT NULL,
	`quotas` text NOT NULL,
	`credits` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identities_environment_external_idx` ON `identities` (`environment`,`external_id`);--> statement-breakpoint
CREATE INDEX `identities_environment_created_idx` ON `identities` (`environment`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `identities_created_idx` ON `identities` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `identities_plan_idx` ON `identities` (`plan_id`) WHERE "identities"."plan_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `plans` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`limits` text NOT NULL,
	`quotas` text NOT NULL,
	`credits` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `plans_created_idx` ON `plans` (`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `keys` ADD `identity_id` text;--> statement-breakpoint
ALTER TABLE `keys` ADD `plan_id` text;--> statement-breakpoint
ALTER TABLE `keys` ADD `limits` text;--> statement-breakpoint
ALTER TABLE `keys` ADD `quotas` text;--> statement-breakpoint
ALTER TABLE `keys` ADD `credits` text;--> statement-breakpoint
CREATE INDEX `keys_identity_idx` ON `keys` (`identity_id`) WHERE "keys"."identity_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `keys_plan_idx` ON `keys` (`plan_id`) WHERE "keys"."plan_id" IS NOT NULL;