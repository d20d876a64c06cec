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
CREATE INDEX `chat_message_by_session_seq_idx` ON `chat_message` (`session_id`,`seq`);--> statement-breakpoint
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
CREATE INDEX `mcp_server_by_credential_idx` ON `mcp_server` (`credential_id`);