CREATE TABLE `canned_response` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`created_by_id` text NOT NULL,
	`shortcut` text NOT NULL,
	`content` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `canned_response_by_owner_shortcut_idx` ON `canned_response` (`owner_id`,`shortcut`);--> statement-breakpoint
CREATE TABLE `chat_read_marker` (
	`session_id` text NOT NULL,
	`operator_id` text NOT NULL,
	`read_user_count` integer NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`session_id`, `operator_id`),
	FOREIGN KEY (`session_id`) REFERENCES `chat_session`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`operator_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `chat_session` ADD `origin` text DEFAULT 'live' NOT NULL CONSTRAINT `chat_session_origin_check` CHECK(`origin` IN ('live', 'test', 'evaluation'));--> statement-breakpoint
ALTER TABLE `chat_session` ADD `last_user_message` text;--> statement-breakpoint
ALTER TABLE `chat_session` ADD `last_user_message_at` text;--> statement-breakpoint
ALTER TABLE `chat_session` ADD `user_message_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `chat_session` ADD `waiting_since` text;--> statement-breakpoint
ALTER TABLE `chat_session` ADD `resolved_at` text;--> statement-breakpoint
CREATE INDEX `chat_session_inbox_idx` ON `chat_session` (`origin`,`resolved_at`,`updated_at`);--> statement-breakpoint
UPDATE `chat_session` SET
	`user_message_count` = (SELECT count(*) FROM `chat_message` m WHERE m.`session_id` = `chat_session`.`id` AND m.`role` = 'user'),
	`last_user_message` = (SELECT substr(m.`content`, 1, 200) FROM `chat_message` m WHERE m.`session_id` = `chat_session`.`id` AND m.`role` = 'user' ORDER BY m.`seq` DESC LIMIT 1),
	`last_user_message_at` = (SELECT m.`created_at` FROM `chat_message` m WHERE m.`session_id` = `chat_session`.`id` AND m.`role` = 'user' ORDER BY m.`seq` DESC LIMIT 1);
