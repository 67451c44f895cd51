CREATE TABLE `credit_operations` (
	`id` text PRIMARY KEY NOT NULL,
	`remaining` integer NOT NULL,
	`refilled_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `credit_operations_expiry_idx` ON `credit_operations` (`expires_at`);