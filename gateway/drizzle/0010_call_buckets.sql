CREATE TABLE `call_buckets` (
	`subject` text NOT NULL,
	`granularity` text NOT NULL,
	`start` integer NOT NULL,
	`environment` text NOT NULL,
	`outcome` text NOT NULL,
	`calls` integer NOT NULL,
	`cost` integer NOT NULL,
	PRIMARY KEY(`subject`, `granularity`, `start`, `environment`, `outcome`)
);
--> statement-breakpoint
CREATE INDEX `call_buckets_age_idx` ON `call_buckets` (`granularity`,`start`);