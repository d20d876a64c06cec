CREATE TABLE `admin_audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`actor_id` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`before_json` text,
	`after_json` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `admin_audit_log_by_time_idx` ON `admin_audit_log` (`created_at`);--> statement-breakpoint
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
CREATE TABLE `model_defaults` (
	`id` text PRIMARY KEY NOT NULL,
	`model_provider` text NOT NULL,
	`model_name` text NOT NULL,
	`model_temperature` real NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "model_defaults_single_row_check" CHECK("model_defaults"."id" = 'global')
);
--> statement-breakpoint
CREATE TABLE `model_provider` (
	`id` text PRIMARY KEY NOT NULL,
	`base_url` text NOT NULL,
	`api_key_sealed` text,
	`models_json` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `auth_token` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	`expires_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "auth_token_kind_check" CHECK("kind" IN ('session', 'api', 'desktop'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_token_by_hash_idx` ON `auth_token` (`token_hash`);--> statement-breakpoint
CREATE INDEX `auth_token_by_user_idx` ON `auth_token` (`user_id`,`kind`);--> statement-breakpoint
CREATE TABLE `user` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`avatar_url` text,
	`roles` text NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`is_system` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_username_nocase_idx` ON `user` ("username" COLLATE NOCASE);--> statement-breakpoint
CREATE TABLE `agent` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`agent_type` text DEFAULT 'chat' NOT NULL,
	`system_prompt` text DEFAULT '' NOT NULL,
	`model_provider` text,
	`model_name` text,
	`model_temperature` real,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "agent_type_check" CHECK("agent_type" IN ('chat', 'workflow'))
);
--> statement-breakpoint
CREATE INDEX `agent_by_owner_idx` ON `agent` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `agent_by_time_idx` ON `agent` (`created_at`);--> statement-breakpoint
CREATE TABLE `chat_message` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`message_type` text DEFAULT 'user_chat' NOT NULL,
	`status` text DEFAULT 'complete' NOT NULL,
	`citations_json` text DEFAULT '[]' NOT NULL,
	`author_id` text,
	`seq` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `chat_session`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "chat_message_status_check" CHECK("status" IN ('complete', 'interrupted', 'draft'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_message_by_session_seq_idx` ON `chat_message` (`session_id`,`seq`);--> statement-breakpoint
CREATE TABLE `chat_session` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`agent_id` text,
	`state` text DEFAULT 'AI_ACTIVE' NOT NULL,
	`epoch` integer DEFAULT 0 NOT NULL,
	`assigned_operator_id` text,
	`model_provider` text,
	`model_name` text,
	`model_temperature` real,
	`last_message` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agent`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`assigned_operator_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "chat_session_state_check" CHECK("state" IN ('AI_ACTIVE', 'HUMAN_ACTIVE'))
);
--> statement-breakpoint
CREATE INDEX `chat_session_by_owner_updated_idx` ON `chat_session` (`owner_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `chat_session_by_updated_idx` ON `chat_session` (`updated_at`);--> statement-breakpoint
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
	`reviewer_name` text,
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
CREATE INDEX `document_run_review_status_idx` ON `document_run_review` (`review_status`);--> statement-breakpoint
CREATE TABLE `evaluation_dataset` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`item_count` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `evaluation_dataset_by_time_idx` ON `evaluation_dataset` (`created_at`);--> statement-breakpoint
CREATE TABLE `evaluation_item` (
	`id` text PRIMARY KEY NOT NULL,
	`dataset_id` text NOT NULL,
	`ordinal` integer NOT NULL,
	`input` text NOT NULL,
	`expected` text NOT NULL,
	`metadata_json` text,
	FOREIGN KEY (`dataset_id`) REFERENCES `evaluation_dataset`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `evaluation_item_dataset_ordinal_idx` ON `evaluation_item` (`dataset_id`,`ordinal`);--> statement-breakpoint
CREATE TABLE `evaluation_result` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`sample_id` text NOT NULL,
	`ordinal` integer NOT NULL,
	`input` text NOT NULL,
	`expected` text NOT NULL,
	`output` text,
	`rule_score` real,
	`rule_details_json` text,
	`judge_score` real,
	`judge_rationale` text,
	`judge_error` text,
	`passed` integer DEFAULT false NOT NULL,
	`latency_ms` integer,
	`error` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `evaluation_run`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `evaluation_result_run_sample_idx` ON `evaluation_result` (`run_id`,`sample_id`);--> statement-breakpoint
CREATE INDEX `evaluation_result_by_ordinal_idx` ON `evaluation_result` (`run_id`,`ordinal`);--> statement-breakpoint
CREATE TABLE `evaluation_run` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`dataset_id` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`judge_provider` text,
	`judge_model` text,
	`concurrency` integer NOT NULL,
	`total` integer NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`summary_json` text,
	`error` text,
	`job_id` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	FOREIGN KEY (`dataset_id`) REFERENCES `evaluation_dataset`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "evaluation_run_status_check" CHECK("status" IN ('queued', 'running', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX `evaluation_run_by_agent_idx` ON `evaluation_run` (`agent_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `evaluation_run_by_dataset_idx` ON `evaluation_run` (`dataset_id`);--> statement-breakpoint
CREATE TABLE `job` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`payload_json` text NOT NULL,
	`result_json` text,
	`progress_json` text,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer DEFAULT 3 NOT NULL,
	`lease_owner` text,
	`lease_expires_at` text,
	`cancel_requested` integer DEFAULT false NOT NULL,
	`run_after` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	CONSTRAINT "job_status_check" CHECK("status" IN ('queued', 'running', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX `job_claimable_idx` ON `job` (`status`,`run_after`);--> statement-breakpoint
CREATE INDEX `job_by_type_idx` ON `job` (`type`,`created_at`);--> statement-breakpoint
CREATE TABLE `ingestion_job` (
	`id` text PRIMARY KEY NOT NULL,
	`source_id` text NOT NULL,
	`agent_id` text,
	`chunking_strategy` text NOT NULL,
	`chunking_params` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`id`) REFERENCES `job`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`source_id`) REFERENCES `knowledge_source`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "ingestion_job_strategy_check" CHECK("chunking_strategy" IN ('fixed_size', 'sentence', 'paragraph', 'semantic', 'recursive'))
);
--> statement-breakpoint
CREATE INDEX `ingestion_job_by_source_idx` ON `ingestion_job` (`source_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `knowledge_chunk` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`source_id` text NOT NULL,
	`document_id` text NOT NULL,
	`ordinal` integer NOT NULL,
	`page_number` integer,
	`char_start` integer NOT NULL,
	`char_end` integer NOT NULL,
	`content` text NOT NULL,
	`embedding_key` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `knowledge_source`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`document_id`) REFERENCES `knowledge_document`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `knowledge_chunk_id_idx` ON `knowledge_chunk` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `knowledge_chunk_document_ordinal_idx` ON `knowledge_chunk` (`document_id`,`ordinal`);--> statement-breakpoint
CREATE INDEX `knowledge_chunk_by_source_idx` ON `knowledge_chunk` (`source_id`);--> statement-breakpoint
CREATE TABLE `knowledge_document` (
	`id` text PRIMARY KEY NOT NULL,
	`source_id` text NOT NULL,
	`file_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`status` text DEFAULT 'uploaded' NOT NULL,
	`error_message` text,
	`page_count` integer,
	`chunk_count` integer DEFAULT 0 NOT NULL,
	`indexed_job_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `knowledge_source`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "knowledge_document_status_check" CHECK("status" IN ('uploaded', 'parsing', 'parsed', 'indexing', 'indexed', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `knowledge_document_source_sha_idx` ON `knowledge_document` (`source_id`,`sha256`);--> statement-breakpoint
CREATE INDEX `knowledge_document_by_source_idx` ON `knowledge_document` (`source_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `knowledge_document_by_sha_idx` ON `knowledge_document` (`sha256`);--> statement-breakpoint
CREATE TABLE `knowledge_mount` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`source_id` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `knowledge_source`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `knowledge_mount_agent_source_idx` ON `knowledge_mount` (`agent_id`,`source_id`);--> statement-breakpoint
CREATE INDEX `knowledge_mount_by_source_idx` ON `knowledge_mount` (`source_id`);--> statement-breakpoint
CREATE TABLE `knowledge_source` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`storage_type` text DEFAULT 'local' NOT NULL,
	`default_chunking_strategy` text NOT NULL,
	`default_chunking_params` text NOT NULL,
	`owner_id` text NOT NULL,
	`indexed_embedding_key` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "knowledge_source_storage_type_check" CHECK("storage_type" IN ('local')),
	CONSTRAINT "knowledge_source_strategy_check" CHECK("default_chunking_strategy" IN ('fixed_size', 'sentence', 'paragraph', 'semantic', 'recursive'))
);
--> statement-breakpoint
CREATE INDEX `knowledge_source_by_owner_idx` ON `knowledge_source` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `asset_grant` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`asset_type` text NOT NULL,
	`asset_id` text NOT NULL,
	`order_id` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_id`) REFERENCES `marketplace_order`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "asset_grant_asset_type_check" CHECK("asset_type" IN ('agent', 'knowledge_source', 'document_agent'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `asset_grant_by_order_idx` ON `asset_grant` (`order_id`);--> statement-breakpoint
CREATE INDEX `asset_grant_by_user_asset_idx` ON `asset_grant` (`user_id`,`asset_type`,`asset_id`);--> statement-breakpoint
CREATE TABLE `idempotency_key` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status_code` integer NOT NULL,
	`response_json` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_key_by_user_key_idx` ON `idempotency_key` (`user_id`,`key`);--> statement-breakpoint
CREATE INDEX `idempotency_key_expiry_idx` ON `idempotency_key` (`expires_at`);--> statement-breakpoint
CREATE TABLE `listing` (
	`id` text PRIMARY KEY NOT NULL,
	`search_id` integer NOT NULL,
	`seller_id` text NOT NULL,
	`asset_type` text NOT NULL,
	`asset_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`cover_image_url` text,
	`pricing_model` text NOT NULL,
	`base_price` integer NOT NULL,
	`tags_json` text NOT NULL,
	`status` text DEFAULT 'pending_review' NOT NULL,
	`status_reason` text,
	`rating_sum` integer DEFAULT 0 NOT NULL,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`download_count` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`seller_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "listing_asset_type_check" CHECK("asset_type" IN ('agent', 'knowledge_source', 'document_agent')),
	CONSTRAINT "listing_pricing_model_check" CHECK("pricing_model" IN ('one_time', 'free')),
	CONSTRAINT "listing_status_check" CHECK("status" IN ('pending_review', 'published', 'rejected', 'suspended', 'unlisted')),
	CONSTRAINT "listing_base_price_check" CHECK("listing"."base_price" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listing_by_search_id_idx` ON `listing` (`search_id`);--> statement-breakpoint
CREATE INDEX `listing_by_status_created_idx` ON `listing` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `listing_by_seller_idx` ON `listing` (`seller_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `marketplace_order` (
	`id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`buyer_id` text NOT NULL,
	`seller_id` text NOT NULL,
	`asset_type` text NOT NULL,
	`asset_id` text NOT NULL,
	`total_price` integer NOT NULL,
	`platform_fee` integer NOT NULL,
	`seller_income` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` text NOT NULL,
	`completed_at` text,
	`refunded_at` text,
	`refund_reason` text,
	FOREIGN KEY (`listing_id`) REFERENCES `listing`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`buyer_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`seller_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "marketplace_order_status_check" CHECK("status" IN ('pending', 'paid', 'refunded')),
	CONSTRAINT "marketplace_order_amounts_check" CHECK("marketplace_order"."total_price" >= 0 AND "marketplace_order"."platform_fee" >= 0 AND "marketplace_order"."seller_income" >= 0 AND "marketplace_order"."platform_fee" + "marketplace_order"."seller_income" = "marketplace_order"."total_price")
);
--> statement-breakpoint
CREATE INDEX `marketplace_order_by_buyer_idx` ON `marketplace_order` (`buyer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `marketplace_order_by_seller_idx` ON `marketplace_order` (`seller_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `marketplace_order_by_listing_buyer_idx` ON `marketplace_order` (`listing_id`,`buyer_id`,`status`);--> statement-breakpoint
CREATE TABLE `review` (
	`id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`author_id` text NOT NULL,
	`rating` integer NOT NULL,
	`comment` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listing`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "review_rating_check" CHECK("review"."rating" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_one_per_author_idx` ON `review` (`listing_id`,`author_id`);--> statement-breakpoint
CREATE INDEX `review_by_listing_idx` ON `review` (`listing_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `wallet` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`frozen_balance` integer DEFAULT 0 NOT NULL,
	`total_earned` integer DEFAULT 0 NOT NULL,
	`total_spent` integer DEFAULT 0 NOT NULL,
	`last_seq` integer DEFAULT 0 NOT NULL,
	`earnings_day` text,
	`earned_on_day` integer DEFAULT 0 NOT NULL,
	`held_on_day` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "wallet_balance_check" CHECK("wallet"."balance" >= 0),
	CONSTRAINT "wallet_frozen_balance_check" CHECK("wallet"."frozen_balance" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_by_user_idx` ON `wallet` (`user_id`);--> statement-breakpoint
CREATE INDEX `wallet_frozen_idx` ON `wallet` (`frozen_balance`);--> statement-breakpoint
CREATE TABLE `wallet_transaction` (
	`id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`wallet_id` text NOT NULL,
	`type` text NOT NULL,
	`amount` integer NOT NULL,
	`balance_after` integer NOT NULL,
	`frozen_after` integer NOT NULL,
	`reference_type` text NOT NULL,
	`reference_id` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`wallet_id`) REFERENCES `wallet`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "wallet_transaction_type_check" CHECK("type" IN ('topup', 'spend', 'income', 'commission', 'refund', 'refund_reversal', 'withdraw', 'transfer_out', 'transfer_in', 'hold', 'release')),
	CONSTRAINT "wallet_transaction_reference_type_check" CHECK("reference_type" IN ('order', 'transfer', 'withdrawal', 'topup', 'earn_cap')),
	CONSTRAINT "wallet_transaction_after_check" CHECK("wallet_transaction"."balance_after" >= 0 AND "wallet_transaction"."frozen_after" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_transaction_by_wallet_seq_idx` ON `wallet_transaction` (`wallet_id`,`seq`);--> statement-breakpoint
CREATE INDEX `wallet_transaction_by_wallet_type_time_idx` ON `wallet_transaction` (`wallet_id`,`type`,`created_at`);--> statement-breakpoint
CREATE INDEX `wallet_transaction_by_reference_idx` ON `wallet_transaction` (`reference_type`,`reference_id`);--> statement-breakpoint
CREATE TABLE `mcp_call_audit` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text,
	`agent_id` text NOT NULL,
	`mcp_server_id` text,
	`tool_name` text NOT NULL,
	`outcome` text NOT NULL,
	`request_payload_json` text,
	`response_payload` text,
	`error` text,
	`duration_ms` integer NOT NULL,
	`created_at` text NOT NULL,
	CONSTRAINT "mcp_call_audit_outcome_check" CHECK("outcome" IN ('success', 'timeout', 'error', 'blocked'))
);
--> statement-breakpoint
CREATE INDEX `mcp_call_audit_by_session_idx` ON `mcp_call_audit` (`session_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `mcp_call_audit_by_agent_idx` ON `mcp_call_audit` (`agent_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `mcp_credential` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`encrypted_secret_json` text NOT NULL,
	`secret_keys_json` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`rotated_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_credential_name_idx` ON `mcp_credential` (`name`);--> statement-breakpoint
CREATE TABLE `mcp_mount` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`mcp_server_id` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`policy_json` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`mcp_server_id`) REFERENCES `mcp_server`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_mount_agent_server_idx` ON `mcp_mount` (`agent_id`,`mcp_server_id`);--> statement-breakpoint
CREATE INDEX `mcp_mount_by_server_idx` ON `mcp_mount` (`mcp_server_id`);--> statement-breakpoint
CREATE TABLE `mcp_server` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`transport` text NOT NULL,
	`command` text,
	`args_json` text NOT NULL,
	`env_json` text NOT NULL,
	`cwd` text,
	`credential_id` text,
	`enabled` integer DEFAULT true NOT NULL,
	`timeout_ms` integer DEFAULT 15000 NOT NULL,
	`last_health_json` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`credential_id`) REFERENCES `mcp_credential`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "mcp_server_transport_check" CHECK("transport" IN ('stdio', 'http_sse'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_server_name_idx` ON `mcp_server` (`name`);--> statement-breakpoint
CREATE INDEX `mcp_server_by_credential_idx` ON `mcp_server` (`credential_id`);--> statement-breakpoint
CREATE TABLE `platform_config` (
	`key` text PRIMARY KEY NOT NULL,
	`value_json` text NOT NULL,
	`description` text,
	`updated_at` text NOT NULL,
	`updated_by` text
);
