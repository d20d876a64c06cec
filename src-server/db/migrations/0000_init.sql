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
CREATE TABLE `platform_config` (
	`key` text PRIMARY KEY NOT NULL,
	`value_json` text NOT NULL,
	`description` text,
	`updated_at` text NOT NULL,
	`updated_by` text
);
