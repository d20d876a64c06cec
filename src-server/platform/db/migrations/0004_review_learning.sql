CREATE TABLE `document_learned_hint` (
	`id` text PRIMARY KEY NOT NULL,
	`runtime_agent_id` text NOT NULL,
	`agent_version_id` text NOT NULL,
	`fingerprint` text NOT NULL,
	`field_key` text NOT NULL,
	`page_number` integer NOT NULL,
	`label_json` text NOT NULL,
	`label_bbox_json` text,
	`value_bbox_json` text NOT NULL,
	`confirmations` integer DEFAULT 1 NOT NULL,
	`learned_from_run_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`runtime_agent_id`) REFERENCES `runtime_agent`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_version_id`) REFERENCES `runtime_agent_version`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`learned_from_run_id`) REFERENCES `agent_run`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `document_learned_hint_layout_field_idx` ON `document_learned_hint` (`agent_version_id`,`fingerprint`,`field_key`);--> statement-breakpoint
CREATE INDEX `document_learned_hint_agent_idx` ON `document_learned_hint` (`runtime_agent_id`);--> statement-breakpoint
CREATE TABLE `document_page_text` (
	`run_id` text NOT NULL,
	`page_number` integer NOT NULL,
	`origin` text NOT NULL,
	`words_json` text NOT NULL,
	PRIMARY KEY(`run_id`, `page_number`),
	FOREIGN KEY (`run_id`) REFERENCES `agent_run`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "document_page_text_origin_check" CHECK("origin" IN ('text_layer', 'ocr'))
);
--> statement-breakpoint
ALTER TABLE `document_field_review` ADD `source` text;--> statement-breakpoint
ALTER TABLE `document_field_review` ADD `learned_from_run_id` text;