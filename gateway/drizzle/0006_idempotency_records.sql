CREATE TABLE `idempotency_records` (
	`key_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`record` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`key_id`, `key_hash`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_records_expires_at_idx` ON `idempotency_records` (`expires_at`);