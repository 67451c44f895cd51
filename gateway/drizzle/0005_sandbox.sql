PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_activity` (
	`id` text PRIMARY KEY NOT NULL,
	`key_id` text,
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
INSERT INTO `__new_activity`("id", "key_id", "environment", "action", "actor_type", "actor_id", "at", "source_ip", "before", "after", "details") SELECT "id", "key_id", "environment", "action", "actor_type", "actor_id", "at", "source_ip", "before", "after", "details" FROM `activity`;--> statement-breakpoint
DROP TABLE `activity`;--> statement-breakpoint
ALTER TABLE `__new_activity` RENAME TO `activity`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `activity_key_at_idx` ON `activity` (`key_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `activity_environment_at_idx` ON `activity` (`environment`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `activity_at_idx` ON `activity` (`at`,`id`);--> statement-breakpoint
ALTER TABLE `api_logs` ADD `bodies` text;