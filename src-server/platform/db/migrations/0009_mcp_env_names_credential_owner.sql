DROP INDEX `mcp_credential_name_idx`;--> statement-breakpoint
ALTER TABLE `mcp_credential` ADD `owner_id` text REFERENCES user(id);--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_credential_owner_name_idx` ON `mcp_credential` (`owner_id`,`name`);--> statement-breakpoint
ALTER TABLE `mcp_server` ADD `env_names_json` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Hand-written backfills. A credential's owner is whoever created it, as the admin audit log recorded.
UPDATE `mcp_credential` SET `owner_id` = (
	SELECT `actor_id` FROM `admin_audit_log`
	WHERE `action` = 'mcp.credential.create' AND `target_id` = `mcp_credential`.`id`
	  AND `actor_id` IN (SELECT `id` FROM `user`)
	ORDER BY `created_at` LIMIT 1
);--> statement-breakpoint
-- A server keeps the variables its credential supplied; refused names are still refused at every launch.
UPDATE `mcp_server` SET `env_names_json` = (
	SELECT `secret_keys_json` FROM `mcp_credential` WHERE `mcp_credential`.`id` = `mcp_server`.`credential_id`
) WHERE `credential_id` IS NOT NULL;
