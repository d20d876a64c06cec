CREATE TABLE "admin_audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"before_json" jsonb,
	"after_json" jsonb,
	"reason" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"agent_type" text DEFAULT 'chat' NOT NULL,
	"system_prompt" text DEFAULT '' NOT NULL,
	"model_provider" text,
	"model_name" text,
	"model_temperature" double precision,
	"audience" text DEFAULT 'owner' NOT NULL,
	"audience_roles_json" jsonb DEFAULT '[]' NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "agent_type_check" CHECK ("agent"."agent_type" IN ('chat', 'workflow'))
);
--> statement-breakpoint
CREATE TABLE "agent_run" (
	"id" text PRIMARY KEY NOT NULL,
	"runtime_agent_id" text NOT NULL,
	"agent_version_id" text NOT NULL,
	"agent_type_snapshot" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"input_slot" text NOT NULL,
	"source_sha256" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"pdf_sha256" text,
	"page_count" bigint,
	"output_json" jsonb,
	"error_message" text,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"rerun_source_run_id" text,
	"created_by_id" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"started_at" text,
	"completed_at" text,
	CONSTRAINT "agent_run_status_check" CHECK ("agent_run"."status" IN ('queued', 'running', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "asset_grant" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"asset_type" text NOT NULL,
	"asset_id" text NOT NULL,
	"order_id" text NOT NULL,
	"created_at" text NOT NULL,
	"revoked_at" text,
	CONSTRAINT "asset_grant_asset_type_check" CHECK (("asset_grant"."asset_type" = 'agent' OR "asset_grant"."asset_type" = 'knowledge_source' OR "asset_grant"."asset_type" = 'document_agent'))
);
--> statement-breakpoint
CREATE TABLE "auth_token" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text,
	"token_hash" text NOT NULL,
	"created_at" text NOT NULL,
	"last_used_at" text,
	"expires_at" text,
	CONSTRAINT "auth_token_kind_check" CHECK ("auth_token"."kind" IN ('session', 'api', 'desktop'))
);
--> statement-breakpoint
CREATE TABLE "canned_response" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text,
	"created_by_id" text NOT NULL,
	"shortcut" text NOT NULL,
	"content" text NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_message" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"message_type" text DEFAULT 'user_chat' NOT NULL,
	"status" text DEFAULT 'complete' NOT NULL,
	"citations_json" jsonb DEFAULT '[]' NOT NULL,
	"author_id" text,
	"seq" bigint NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "chat_message_status_check" CHECK ("chat_message"."status" IN ('complete', 'interrupted', 'draft'))
);
--> statement-breakpoint
CREATE TABLE "chat_read_marker" (
	"session_id" text NOT NULL,
	"operator_id" text NOT NULL,
	"read_user_count" bigint NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "chat_read_marker_session_id_operator_id_pk" PRIMARY KEY("session_id","operator_id")
);
--> statement-breakpoint
CREATE TABLE "chat_session" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"agent_id" text,
	"state" text DEFAULT 'AI_ACTIVE' NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL,
	"assigned_operator_id" text,
	"model_provider" text,
	"model_name" text,
	"model_temperature" double precision,
	"last_message" text,
	"origin" text DEFAULT 'live' NOT NULL,
	"last_user_message" text,
	"last_user_message_at" text,
	"topic" text,
	"user_message_count" bigint DEFAULT 0 NOT NULL,
	"waiting_since" text,
	"resolved_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "chat_session_state_check" CHECK ("chat_session"."state" IN ('AI_ACTIVE', 'HUMAN_ACTIVE'))
);
--> statement-breakpoint
CREATE TABLE "document_field_review" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"position" bigint NOT NULL,
	"field_key" text NOT NULL,
	"label" text NOT NULL,
	"value_json" jsonb,
	"extracted_value_json" jsonb,
	"confidence" double precision NOT NULL,
	"page_number" bigint,
	"bbox_json" jsonb,
	"baseline_page_number" bigint,
	"baseline_bbox_json" jsonb,
	"review_status" text NOT NULL,
	"source" text,
	"learned_from_run_id" text,
	"flag_reasons_json" jsonb NOT NULL,
	"issues_json" jsonb NOT NULL,
	"reviewer_note" text,
	"revision_count" bigint DEFAULT 0 NOT NULL,
	"last_revised_at" text,
	"last_revised_by_id" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "document_field_review_status_check" CHECK ("document_field_review"."review_status" IN ('pending', 'flagged', 'accepted', 'corrected', 'not_on_document'))
);
--> statement-breakpoint
CREATE TABLE "document_field_revision" (
	"id" text PRIMARY KEY NOT NULL,
	"field_review_id" text NOT NULL,
	"revision" bigint NOT NULL,
	"value_json" jsonb,
	"previous_value_json" jsonb,
	"review_status" text NOT NULL,
	"reviewer_note" text,
	"page_number" bigint,
	"bbox_json" jsonb,
	"actor_id" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_learned_hint" (
	"id" text PRIMARY KEY NOT NULL,
	"runtime_agent_id" text NOT NULL,
	"agent_version_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"field_key" text NOT NULL,
	"page_number" bigint NOT NULL,
	"label_json" jsonb NOT NULL,
	"label_bbox_json" jsonb,
	"value_bbox_json" jsonb NOT NULL,
	"value_words" bigint,
	"confirmations" bigint DEFAULT 1 NOT NULL,
	"learned_from_run_id" text NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_page_text" (
	"run_id" text NOT NULL,
	"page_number" bigint NOT NULL,
	"origin" text NOT NULL,
	"words_json" jsonb NOT NULL,
	CONSTRAINT "document_page_text_run_id_page_number_pk" PRIMARY KEY("run_id","page_number"),
	CONSTRAINT "document_page_text_origin_check" CHECK ("document_page_text"."origin" IN ('text_layer', 'ocr'))
);
--> statement-breakpoint
CREATE TABLE "document_recognition_agent" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"review_sample_rate" double precision DEFAULT 0.05 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_review_event" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"actor_id" text NOT NULL,
	"reviewer_name" text,
	"previous_status" text NOT NULL,
	"next_status" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "document_review_event_kind_check" CHECK ("document_review_event"."kind" IN ('rejected', 'approved', 'reopened', 'synced'))
);
--> statement-breakpoint
CREATE TABLE "document_run_review" (
	"run_id" text PRIMARY KEY NOT NULL,
	"review_status" text DEFAULT 'pending' NOT NULL,
	"revision_tracking" boolean DEFAULT true NOT NULL,
	"pages_json" jsonb NOT NULL,
	"diff_from_source_json" jsonb,
	"reviewed_at" text,
	"synced_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "document_run_review_status_check" CHECK ("document_run_review"."review_status" IN ('pending', 'flagged', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "evaluation_dataset" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"item_count" bigint DEFAULT 0 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evaluation_item" (
	"id" text PRIMARY KEY NOT NULL,
	"dataset_id" text NOT NULL,
	"ordinal" bigint NOT NULL,
	"input" text NOT NULL,
	"expected" text NOT NULL,
	"metadata_json" jsonb
);
--> statement-breakpoint
CREATE TABLE "evaluation_result" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"sample_id" text NOT NULL,
	"ordinal" bigint NOT NULL,
	"input" text NOT NULL,
	"expected" text NOT NULL,
	"output" text,
	"rule_score" double precision,
	"rule_details_json" jsonb,
	"judge_score" double precision,
	"judge_rationale" text,
	"judge_error" text,
	"passed" boolean DEFAULT false NOT NULL,
	"latency_ms" bigint,
	"error" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evaluation_run" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"dataset_id" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"judge_provider" text,
	"judge_model" text,
	"concurrency" bigint NOT NULL,
	"total" bigint NOT NULL,
	"done" bigint DEFAULT 0 NOT NULL,
	"summary_json" jsonb,
	"error" text,
	"job_id" text,
	"created_by" text NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"started_at" text,
	"finished_at" text,
	CONSTRAINT "evaluation_run_status_check" CHECK ("evaluation_run"."status" IN ('queued', 'running', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "idempotency_key" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" bigint NOT NULL,
	"response_json" jsonb NOT NULL,
	"created_at" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingestion_job" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"agent_id" text,
	"chunking_strategy" text NOT NULL,
	"chunking_params" jsonb NOT NULL,
	"created_by" text,
	"created_at" text NOT NULL,
	CONSTRAINT "ingestion_job_strategy_check" CHECK ("ingestion_job"."chunking_strategy" IN ('fixed_size', 'sentence', 'paragraph', 'semantic', 'recursive'))
);
--> statement-breakpoint
CREATE TABLE "job" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"payload_json" jsonb NOT NULL,
	"result_json" jsonb,
	"progress_json" jsonb,
	"error" text,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"crashes" bigint DEFAULT 0 NOT NULL,
	"max_attempts" bigint DEFAULT 3 NOT NULL,
	"lease_owner" text,
	"lease_expires_at" text,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"run_after" text NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"started_at" text,
	"finished_at" text,
	CONSTRAINT "job_status_check" CHECK ("job"."status" IN ('queued', 'running', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunk" (
	"seq" bigint PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY (sequence name "knowledge_chunk_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"source_id" text NOT NULL,
	"document_id" text NOT NULL,
	"ordinal" bigint NOT NULL,
	"page_number" bigint,
	"char_start" bigint NOT NULL,
	"char_end" bigint NOT NULL,
	"content" text NOT NULL,
	"embedding_key" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_document" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"error_message" text,
	"page_count" bigint,
	"chunk_count" bigint DEFAULT 0 NOT NULL,
	"indexed_job_id" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "knowledge_document_status_check" CHECK ("knowledge_document"."status" IN ('uploaded', 'parsing', 'parsed', 'indexing', 'indexed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "knowledge_mount" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"source_id" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"priority" bigint DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_source" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"storage_type" text DEFAULT 'local' NOT NULL,
	"default_chunking_strategy" text NOT NULL,
	"default_chunking_params" jsonb NOT NULL,
	"owner_id" text NOT NULL,
	"indexed_embedding_key" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "knowledge_source_storage_type_check" CHECK ("knowledge_source"."storage_type" IN ('local')),
	CONSTRAINT "knowledge_source_strategy_check" CHECK ("knowledge_source"."default_chunking_strategy" IN ('fixed_size', 'sentence', 'paragraph', 'semantic', 'recursive'))
);
--> statement-breakpoint
CREATE TABLE "listing" (
	"id" text PRIMARY KEY NOT NULL,
	"search_id" bigint NOT NULL,
	"seller_id" text NOT NULL,
	"asset_type" text NOT NULL,
	"asset_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"cover_image_url" text,
	"pricing_model" text NOT NULL,
	"base_price" bigint NOT NULL,
	"tags_json" jsonb NOT NULL,
	"status" text DEFAULT 'pending_review' NOT NULL,
	"status_reason" text,
	"rating_sum" bigint DEFAULT 0 NOT NULL,
	"rating_count" bigint DEFAULT 0 NOT NULL,
	"download_count" bigint DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "listing_asset_type_check" CHECK ("listing"."asset_type" IN ('agent', 'knowledge_source', 'document_agent')),
	CONSTRAINT "listing_pricing_model_check" CHECK ("listing"."pricing_model" IN ('one_time', 'free')),
	CONSTRAINT "listing_status_check" CHECK ("listing"."status" IN ('pending_review', 'published', 'rejected', 'suspended', 'unlisted')),
	CONSTRAINT "listing_base_price_check" CHECK ("listing"."base_price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "listing_count" (
	"status" text NOT NULL,
	"asset_type" text NOT NULL,
	"pricing_model" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "listing_count_status_asset_type_pricing_model_pk" PRIMARY KEY("status","asset_type","pricing_model")
);
--> statement-breakpoint
CREATE TABLE "marketplace_order" (
	"id" text PRIMARY KEY NOT NULL,
	"listing_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"seller_id" text NOT NULL,
	"asset_type" text NOT NULL,
	"asset_id" text NOT NULL,
	"total_price" bigint NOT NULL,
	"platform_fee" bigint NOT NULL,
	"seller_income" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" text NOT NULL,
	"completed_at" text,
	"refundable_until" text,
	"refunded_at" text,
	"refund_reason" text,
	CONSTRAINT "marketplace_order_status_check" CHECK (("marketplace_order"."status" = 'pending' OR "marketplace_order"."status" = 'paid' OR "marketplace_order"."status" = 'refunded')),
	CONSTRAINT "marketplace_order_amounts_check" CHECK ("marketplace_order"."total_price" >= 0 AND "marketplace_order"."platform_fee" >= 0 AND "marketplace_order"."seller_income" >= 0 AND "marketplace_order"."platform_fee" + "marketplace_order"."seller_income" = "marketplace_order"."total_price")
);
--> statement-breakpoint
CREATE TABLE "mcp_call_audit" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text,
	"agent_id" text NOT NULL,
	"mcp_server_id" text,
	"tool_name" text NOT NULL,
	"outcome" text NOT NULL,
	"request_payload_json" jsonb,
	"response_payload" text,
	"error" text,
	"duration_ms" bigint NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "mcp_call_audit_outcome_check" CHECK ("mcp_call_audit"."outcome" IN ('success', 'timeout', 'error', 'blocked'))
);
--> statement-breakpoint
CREATE TABLE "mcp_credential" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text,
	"name" text NOT NULL,
	"description" text,
	"encrypted_secret_json" text NOT NULL,
	"secret_keys_json" jsonb NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"rotated_at" text
);
--> statement-breakpoint
CREATE TABLE "mcp_mount" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"mcp_server_id" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"policy_json" jsonb NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_server" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"transport" text NOT NULL,
	"command" text,
	"args_json" jsonb NOT NULL,
	"env_json" jsonb NOT NULL,
	"env_names_json" jsonb DEFAULT '[]' NOT NULL,
	"cwd" text,
	"credential_id" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"timeout_ms" bigint DEFAULT 15000 NOT NULL,
	"last_health_json" jsonb,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "mcp_server_transport_check" CHECK ("mcp_server"."transport" IN ('stdio', 'http_sse'))
);
--> statement-breakpoint
CREATE TABLE "model_defaults" (
	"id" text PRIMARY KEY NOT NULL,
	"model_provider" text NOT NULL,
	"model_name" text NOT NULL,
	"model_temperature" double precision NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "model_defaults_single_row_check" CHECK ("model_defaults"."id" = 'global')
);
--> statement-breakpoint
CREATE TABLE "model_provider" (
	"id" text PRIMARY KEY NOT NULL,
	"base_url" text NOT NULL,
	"api_key_sealed" text,
	"models_json" jsonb NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_config" (
	"key" text PRIMARY KEY NOT NULL,
	"value_json" jsonb NOT NULL,
	"description" text,
	"updated_at" text NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "review" (
	"id" text PRIMARY KEY NOT NULL,
	"listing_id" text NOT NULL,
	"author_id" text NOT NULL,
	"rating" bigint NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"counted" boolean DEFAULT true NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "review_rating_check" CHECK ("review"."rating" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE TABLE "runtime_agent" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"published_version_id" text,
	"owner_id" text,
	"definition_key" text,
	"shipped_config_sha" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "runtime_agent_type_check" CHECK ("runtime_agent"."type" IN ('document_extraction'))
);
--> statement-breakpoint
CREATE TABLE "runtime_agent_version" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"version" bigint NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"config_json" jsonb NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "runtime_agent_version_status_check" CHECK ("runtime_agent_version"."status" IN ('draft', 'published', 'retired'))
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"avatar_url" text,
	"roles" jsonb NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"frozen_balance" bigint DEFAULT 0 NOT NULL,
	"total_earned" bigint DEFAULT 0 NOT NULL,
	"total_spent" bigint DEFAULT 0 NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"earnings_day" text,
	"earned_on_day" bigint DEFAULT 0 NOT NULL,
	"holds_json" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "wallet_balance_check" CHECK ("wallet"."balance" >= 0),
	CONSTRAINT "wallet_frozen_balance_check" CHECK ("wallet"."frozen_balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_transaction" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"wallet_id" text NOT NULL,
	"type" text NOT NULL,
	"amount" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"frozen_after" bigint NOT NULL,
	"reference_type" text NOT NULL,
	"reference_id" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "wallet_transaction_type_check" CHECK (("wallet_transaction"."type" = 'topup' OR "wallet_transaction"."type" = 'spend' OR "wallet_transaction"."type" = 'income' OR "wallet_transaction"."type" = 'commission' OR "wallet_transaction"."type" = 'refund' OR "wallet_transaction"."type" = 'refund_reversal' OR "wallet_transaction"."type" = 'withdraw' OR "wallet_transaction"."type" = 'transfer_out' OR "wallet_transaction"."type" = 'transfer_in' OR "wallet_transaction"."type" = 'hold' OR "wallet_transaction"."type" = 'release')),
	CONSTRAINT "wallet_transaction_reference_type_check" CHECK (("wallet_transaction"."reference_type" = 'order' OR "wallet_transaction"."reference_type" = 'transfer' OR "wallet_transaction"."reference_type" = 'withdrawal' OR "wallet_transaction"."reference_type" = 'topup' OR "wallet_transaction"."reference_type" = 'earn_cap')),
	CONSTRAINT "wallet_transaction_after_check" CHECK ("wallet_transaction"."balance_after" >= 0 AND "wallet_transaction"."frozen_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunk_deletions" (
	"id" bigint PRIMARY KEY NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "knowledge_chunk_deletions_single_row_check" CHECK ("knowledge_chunk_deletions"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunk_search" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunk_vector" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"embedding_key" text NOT NULL,
	"source_id" text NOT NULL,
	"embedding" real[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "published_listing_search" (
	"search_id" bigint PRIMARY KEY NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent" ADD CONSTRAINT "agent_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_run" ADD CONSTRAINT "agent_run_runtime_agent_id_runtime_agent_id_fk" FOREIGN KEY ("runtime_agent_id") REFERENCES "public"."runtime_agent"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_run" ADD CONSTRAINT "agent_run_agent_version_id_runtime_agent_version_id_fk" FOREIGN KEY ("agent_version_id") REFERENCES "public"."runtime_agent_version"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_grant" ADD CONSTRAINT "asset_grant_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_grant" ADD CONSTRAINT "asset_grant_order_id_marketplace_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."marketplace_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_token" ADD CONSTRAINT "auth_token_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canned_response" ADD CONSTRAINT "canned_response_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canned_response" ADD CONSTRAINT "canned_response_created_by_id_user_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_message" ADD CONSTRAINT "chat_message_session_id_chat_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_message" ADD CONSTRAINT "chat_message_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_read_marker" ADD CONSTRAINT "chat_read_marker_session_id_chat_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_read_marker" ADD CONSTRAINT "chat_read_marker_operator_id_user_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_session" ADD CONSTRAINT "chat_session_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_session" ADD CONSTRAINT "chat_session_agent_id_agent_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agent"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_session" ADD CONSTRAINT "chat_session_assigned_operator_id_user_id_fk" FOREIGN KEY ("assigned_operator_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_field_review" ADD CONSTRAINT "document_field_review_run_id_agent_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_field_revision" ADD CONSTRAINT "document_field_revision_field_review_id_fk" FOREIGN KEY ("field_review_id") REFERENCES "public"."document_field_review"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_learned_hint" ADD CONSTRAINT "document_learned_hint_runtime_agent_id_runtime_agent_id_fk" FOREIGN KEY ("runtime_agent_id") REFERENCES "public"."runtime_agent"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_learned_hint" ADD CONSTRAINT "document_learned_hint_agent_version_id_fk" FOREIGN KEY ("agent_version_id") REFERENCES "public"."runtime_agent_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_learned_hint" ADD CONSTRAINT "document_learned_hint_learned_from_run_id_agent_run_id_fk" FOREIGN KEY ("learned_from_run_id") REFERENCES "public"."agent_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_page_text" ADD CONSTRAINT "document_page_text_run_id_agent_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_recognition_agent" ADD CONSTRAINT "document_recognition_agent_agent_id_runtime_agent_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."runtime_agent"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_review_event" ADD CONSTRAINT "document_review_event_run_id_agent_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_run_review" ADD CONSTRAINT "document_run_review_run_id_agent_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_item" ADD CONSTRAINT "evaluation_item_dataset_id_evaluation_dataset_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."evaluation_dataset"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_result" ADD CONSTRAINT "evaluation_result_run_id_evaluation_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."evaluation_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_run" ADD CONSTRAINT "evaluation_run_dataset_id_evaluation_dataset_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."evaluation_dataset"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_key" ADD CONSTRAINT "idempotency_key_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingestion_job" ADD CONSTRAINT "ingestion_job_id_job_id_fk" FOREIGN KEY ("id") REFERENCES "public"."job"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingestion_job" ADD CONSTRAINT "ingestion_job_source_id_knowledge_source_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."knowledge_source"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingestion_job" ADD CONSTRAINT "ingestion_job_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunk" ADD CONSTRAINT "knowledge_chunk_source_id_knowledge_source_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."knowledge_source"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunk" ADD CONSTRAINT "knowledge_chunk_document_id_knowledge_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."knowledge_document"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_document" ADD CONSTRAINT "knowledge_document_source_id_knowledge_source_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."knowledge_source"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_mount" ADD CONSTRAINT "knowledge_mount_source_id_knowledge_source_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."knowledge_source"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_source" ADD CONSTRAINT "knowledge_source_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing" ADD CONSTRAINT "listing_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_order" ADD CONSTRAINT "marketplace_order_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_order" ADD CONSTRAINT "marketplace_order_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_order" ADD CONSTRAINT "marketplace_order_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_credential" ADD CONSTRAINT "mcp_credential_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_mount" ADD CONSTRAINT "mcp_mount_mcp_server_id_mcp_server_id_fk" FOREIGN KEY ("mcp_server_id") REFERENCES "public"."mcp_server"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_server" ADD CONSTRAINT "mcp_server_credential_id_mcp_credential_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."mcp_credential"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runtime_agent_version" ADD CONSTRAINT "runtime_agent_version_agent_id_runtime_agent_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."runtime_agent"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet" ADD CONSTRAINT "wallet_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_transaction" ADD CONSTRAINT "wallet_transaction_wallet_id_wallet_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallet"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunk_search" ADD CONSTRAINT "knowledge_chunk_search_seq_fk" FOREIGN KEY ("seq") REFERENCES "public"."knowledge_chunk"("seq") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunk_vector" ADD CONSTRAINT "knowledge_chunk_vector_seq_fk" FOREIGN KEY ("seq") REFERENCES "public"."knowledge_chunk"("seq") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_by_time_idx" ON "admin_audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_log_by_actor_idx" ON "admin_audit_log" USING btree ("actor_id","created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_log_by_action_idx" ON "admin_audit_log" USING btree ("action","created_at");--> statement-breakpoint
CREATE INDEX "agent_by_owner_idx" ON "agent" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_by_time_idx" ON "agent" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "agent_run_agent_idx" ON "agent_run" USING btree ("runtime_agent_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_run_rerun_source_idx" ON "agent_run" USING btree ("rerun_source_run_id");--> statement-breakpoint
CREATE INDEX "agent_run_created_idx" ON "agent_run" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "asset_grant_by_order_idx" ON "asset_grant" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "asset_grant_by_user_asset_idx" ON "asset_grant" USING btree ("user_id","asset_type","asset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_token_by_hash_idx" ON "auth_token" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "auth_token_by_user_idx" ON "auth_token" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "canned_response_by_owner_shortcut_idx" ON "canned_response" USING btree ("owner_id","shortcut");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_message_by_session_seq_idx" ON "chat_message" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "chat_session_by_owner_updated_idx" ON "chat_session" USING btree ("owner_id","updated_at");--> statement-breakpoint
CREATE INDEX "chat_session_by_updated_idx" ON "chat_session" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "chat_session_inbox_idx" ON "chat_session" USING btree ("origin","resolved_at","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "document_field_review_run_key_idx" ON "document_field_review" USING btree ("run_id","field_key");--> statement-breakpoint
CREATE UNIQUE INDEX "document_field_revision_number_idx" ON "document_field_revision" USING btree ("field_review_id","revision");--> statement-breakpoint
CREATE UNIQUE INDEX "document_learned_hint_layout_field_idx" ON "document_learned_hint" USING btree ("agent_version_id","fingerprint","field_key");--> statement-breakpoint
CREATE INDEX "document_learned_hint_agent_idx" ON "document_learned_hint" USING btree ("runtime_agent_id");--> statement-breakpoint
CREATE INDEX "document_review_event_run_idx" ON "document_review_event" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "document_run_review_status_idx" ON "document_run_review" USING btree ("review_status");--> statement-breakpoint
CREATE INDEX "evaluation_dataset_by_time_idx" ON "evaluation_dataset" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_item_dataset_ordinal_idx" ON "evaluation_item" USING btree ("dataset_id","ordinal");--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_result_run_sample_idx" ON "evaluation_result" USING btree ("run_id","sample_id");--> statement-breakpoint
CREATE INDEX "evaluation_result_by_ordinal_idx" ON "evaluation_result" USING btree ("run_id","ordinal");--> statement-breakpoint
CREATE INDEX "evaluation_run_by_agent_idx" ON "evaluation_run" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "evaluation_run_by_dataset_idx" ON "evaluation_run" USING btree ("dataset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_key_by_user_key_idx" ON "idempotency_key" USING btree ("user_id","key");--> statement-breakpoint
CREATE INDEX "idempotency_key_expiry_idx" ON "idempotency_key" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "ingestion_job_by_source_idx" ON "ingestion_job" USING btree ("source_id","created_at");--> statement-breakpoint
CREATE INDEX "job_claimable_idx" ON "job" USING btree ("status","run_after");--> statement-breakpoint
CREATE INDEX "job_by_type_idx" ON "job" USING btree ("type","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_chunk_id_idx" ON "knowledge_chunk" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_chunk_document_ordinal_idx" ON "knowledge_chunk" USING btree ("document_id","ordinal");--> statement-breakpoint
CREATE INDEX "knowledge_chunk_by_source_idx" ON "knowledge_chunk" USING btree ("source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_document_source_sha_idx" ON "knowledge_document" USING btree ("source_id","sha256");--> statement-breakpoint
CREATE INDEX "knowledge_document_by_source_idx" ON "knowledge_document" USING btree ("source_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_document_by_sha_idx" ON "knowledge_document" USING btree ("sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_mount_agent_source_idx" ON "knowledge_mount" USING btree ("agent_id","source_id");--> statement-breakpoint
CREATE INDEX "knowledge_mount_by_source_idx" ON "knowledge_mount" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "knowledge_source_by_owner_idx" ON "knowledge_source" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "listing_by_search_id_idx" ON "listing" USING btree ("search_id");--> statement-breakpoint
CREATE INDEX "listing_by_status_created_idx" ON "listing" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "listing_by_seller_idx" ON "listing" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "marketplace_order_by_buyer_idx" ON "marketplace_order" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "marketplace_order_by_seller_idx" ON "marketplace_order" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "marketplace_order_by_listing_buyer_idx" ON "marketplace_order" USING btree ("listing_id","buyer_id");--> statement-breakpoint
CREATE INDEX "mcp_call_audit_by_session_idx" ON "mcp_call_audit" USING btree ("session_id","created_at");--> statement-breakpoint
CREATE INDEX "mcp_call_audit_by_agent_idx" ON "mcp_call_audit" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_credential_owner_name_idx" ON "mcp_credential" USING btree ("owner_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_mount_agent_server_idx" ON "mcp_mount" USING btree ("agent_id","mcp_server_id");--> statement-breakpoint
CREATE INDEX "mcp_mount_by_server_idx" ON "mcp_mount" USING btree ("mcp_server_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_server_name_idx" ON "mcp_server" USING btree ("name");--> statement-breakpoint
CREATE INDEX "mcp_server_by_credential_idx" ON "mcp_server" USING btree ("credential_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_one_per_author_idx" ON "review" USING btree ("listing_id","author_id");--> statement-breakpoint
CREATE INDEX "review_by_listing_idx" ON "review" USING btree ("listing_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "runtime_agent_definition_key_idx" ON "runtime_agent" USING btree ("definition_key");--> statement-breakpoint
CREATE UNIQUE INDEX "runtime_agent_version_number_idx" ON "runtime_agent_version" USING btree ("agent_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "runtime_agent_version_one_published_idx" ON "runtime_agent_version" USING btree ("agent_id") WHERE status = 'published';--> statement-breakpoint
CREATE UNIQUE INDEX "user_username_nocase_idx" ON "user" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_by_user_idx" ON "wallet" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_transaction_by_wallet_seq_idx" ON "wallet_transaction" USING btree ("wallet_id","seq");--> statement-breakpoint
CREATE INDEX "wallet_transaction_by_transfer_idx" ON "wallet_transaction" USING btree ("reference_id") WHERE "wallet_transaction"."reference_type" = 'transfer';--> statement-breakpoint
CREATE INDEX "knowledge_chunk_search_document_idx" ON "knowledge_chunk_search" USING gin ("document");--> statement-breakpoint
CREATE INDEX "knowledge_chunk_vector_by_key_source_idx" ON "knowledge_chunk_vector" USING btree ("embedding_key","source_id");--> statement-breakpoint
CREATE INDEX "published_listing_search_document_idx" ON "published_listing_search" USING gin ("document");