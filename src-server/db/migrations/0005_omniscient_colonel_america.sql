ALTER TABLE `listing` ADD `search_id` integer NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `listing_by_search_id_idx` ON `listing` (`search_id`);