CREATE TABLE `rate_limit_window` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`window_ends_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_limit_window_by_end_idx` ON `rate_limit_window` (`window_ends_at`);