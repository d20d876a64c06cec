ALTER TABLE `admin_audit_log` ADD `reason` text;--> statement-breakpoint
CREATE INDEX `admin_audit_log_by_actor_idx` ON `admin_audit_log` (`actor_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `admin_audit_log_by_action_idx` ON `admin_audit_log` (`action`,`created_at`);