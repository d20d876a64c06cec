CREATE TABLE `agent_run` (
	`id` text PRIMARY KEY NOT NULL,
	`runtime_agent_id` text NOT NULL,
	`agent_version_id` text NOT NULL,
	`agent_type_snapshot` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`input_slot` text NOT NULL,
	`source_sha256` text NOT NULL,
	`file_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`pdf_sha256` text,
	`page_count` integer,
	`output_json` text,
	`error_message` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`rerun_source_run_id` text,
	`created_by_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`started_at` text,
	`completed_at` text,
	FOREIGN KEY (`runtime_agent_id`) REFERENCES `runtime_agent`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_version_id`) REFERENCES `runtime_agent_version`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "agent_run_status_check" CHECK("status" IN ('queued', 'running', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `agent_run_agent_idx` ON `agent_run` (`runtime_agent_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `agent_run_rerun_source_idx` ON `agent_run` (`rerun_source_run_id`);--> statement-breakpoint
CREATE INDEX `agent_run_created_idx` ON `agent_run` (`created_at`);--> statement-breakpoint
CREATE TABLE `runtime_agent` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`published_version_id` text,
	`owner_id` text,
	`definition_key` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "runtime_agent_type_check" CHECK("type" IN ('document_extraction'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runtime_agent_definition_key_idx` ON `runtime_agent` (`definition_key`);--> statement-breakpoint
CREATE TABLE `runtime_agent_version` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`version` integer NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`config_json` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `runtime_agent`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "runtime_agent_version_status_check" CHECK("status" IN ('draft', 'published', 'retired'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runtime_agent_version_number_idx` ON `runtime_agent_version` (`agent_id`,`version`);--> statement-breakpoint
CREATE UNIQUE INDEX `runtime_agent_version_one_published_idx` ON `runtime_agent_version` (`agent_id`) WHERE status = 'published';--> statement-breakpoint
CREATE TABLE `document_field_review` (
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
	`flag_reasons_json` text NOT NULL,
	`issues_json` text NOT NULL,
	`reviewer_note` text,
	`revision_count` integer DEFAULT 0 NOT NULL,
	`last_revised_at` text,
	`last_revised_by_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `agent_run`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "document_field_review_status_check" CHECK("review_status" IN ('pending', 'flagged', 'accepted', 'corrected'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `document_field_review_run_key_idx` ON `document_field_review` (`run_id`,`field_key`);--> statement-breakpoint
CREATE TABLE `document_field_revision` (
	`id` text PRIMARY KEY NOT NULL,
	`field_review_id` text NOT NULL,
	`revision` integer NOT NULL,
	`value_json` text,
	`previous_value_json` text,
	`review_status` text NOT NULL,
	`reviewer_note` text,
	`page_number` integer,
	`bbox_json` text,
	`actor_id` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`field_review_id`) REFERENCES `document_field_review`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `document_field_revision_number_idx` ON `document_field_revision` (`field_review_id`,`revision`);--> statement-breakpoint
CREATE TABLE `document_recognition_agent` (
	`agent_id` text PRIMARY KEY NOT NULL,
	`display_name` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`review_sample_rate` real DEFAULT 0.05 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `runtime_agent`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `document_review_event` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`kind` text NOT NULL,
	`reason` text,
	`actor_id` text NOT NULL,
	`previous_status` text NOT NULL,
	`next_status` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `agent_run`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "document_review_event_kind_check" CHECK("kind" IN ('rejected', 'approved', 'reopened', 'synced'))
);
--> statement-breakpoint
CREATE INDEX `document_review_event_run_idx` ON `document_review_event` (`run_id`);--> statement-breakpoint
CREATE TABLE `document_run_review` (
	`run_id` text PRIMARY KEY NOT NULL,
	`review_status` text DEFAULT 'pending' NOT NULL,
	`revision_tracking` integer DEFAULT true NOT NULL,
	`pages_json` text NOT NULL,
	`diff_from_source_json` text,
	`reviewed_at` text,
	`synced_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `agent_run`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "document_run_review_status_check" CHECK("review_status" IN ('pending', 'flagged', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE INDEX `document_run_review_status_idx` ON `document_run_review` (`review_status`);