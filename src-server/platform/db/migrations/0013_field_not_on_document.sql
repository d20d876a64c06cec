PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_document_field_review` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`position` integer NOT NULL,
	`field_key` text NOT NULL,
	`label` text NOT NULL,
	`value_json` text,
	`extracted_value_json` text,
	`confidence` real NOT NULL,
	`page_number` integer,
	`bbox_json` text,
	`baseline_page_number` integer,
	`baseline_bbox_json` text,
	`review_status` text NOT NULL,
	`source` text,
	`learned_from_run_id` text,
	`flag_reasons_json` text NOT NULL,
	`issues_json` text NOT NULL,
	`reviewer_note` text,
	`revision_count` integer DEFAULT 0 NOT NULL,
	`last_revised_at` text,
	`last_revised_by_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `agent_run`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "document_field_review_status_check" CHECK("review_status" IN ('pending', 'flagged', 'accepted', 'corrected', 'not_on_document'))
);
--> statement-breakpoint
INSERT INTO `__new_document_field_review`("id", "run_id", "position", "field_key", "label", "value_json", "extracted_value_json", "confidence", "page_number", "bbox_json", "baseline_page_number", "baseline_bbox_json", "review_status", "source", "learned_from_run_id", "flag_reasons_json", "issues_json", "reviewer_note", "revision_count", "last_revised_at", "last_revised_by_id", "created_at", "updated_at") SELECT "id", "run_id", "position", "field_key", "label", "value_json", "extracted_value_json", "confidence", "page_number", "bbox_json", "baseline_page_number", "baseline_bbox_json", "review_status", "source", "learned_from_run_id", "flag_reasons_json", "issues_json", "reviewer_note", "revision_count", "last_revised_at", "last_revised_by_id", "created_at", "updated_at" FROM `document_field_review`;--> statement-breakpoint
DROP TABLE `document_field_review`;--> statement-breakpoint
ALTER TABLE `__new_document_field_review` RENAME TO `document_field_review`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `document_field_review_run_key_idx` ON `document_field_review` (`run_id`,`field_key`);