ALTER TABLE `agent` ADD `audience` text DEFAULT 'owner' NOT NULL;--> statement-breakpoint
ALTER TABLE `agent` ADD `audience_roles_json` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `chat_session` ADD `topic` text;