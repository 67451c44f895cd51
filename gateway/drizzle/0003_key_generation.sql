CREATE TABLE `store_counters` (
	`name` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `store_counters` (`name`, `value`) VALUES ('key_generation', 0);
