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
CREATE INDEX `wallet_transaction_by_reference_idx` ON `wallet_transaction` (`reference_type`,`reference_id`);