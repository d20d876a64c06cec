ALTER TABLE `wallet` ADD `last_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `wallet` ADD `earnings_day` text;--> statement-breakpoint
ALTER TABLE `wallet` ADD `earned_on_day` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `wallet` ADD `held_on_day` integer DEFAULT 0 NOT NULL;