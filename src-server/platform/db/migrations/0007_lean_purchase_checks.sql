-- The tables a purchase writes check their kinds and states by plain comparisons instead of an IN list: SQLite
-- builds an IN list of three or more constants into a temporary b-tree on every statement that checks it, nine per
-- purchase (db/columns.ts `oneOfInline`). A CHECK cannot be altered in SQLite, so the three tables are rebuilt.
-- The migrator runs in one transaction, where PRAGMA foreign_keys cannot change: the new grant table refers to
-- the new order table, so no row ever refers to a dropped table, and renaming the order table renames the
-- reference. The order's listing-and-buyer index leaves out the status, so marking an order paid or refunded
-- rewrites no index entry. The wallet's frozen_balance index goes: a purchase changes the buyer's frozen balance
-- twice, and only the sweep looks wallets up by it (a scan of one row per user every 10 minutes).
CREATE TABLE `__new_marketplace_order` (
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
	CONSTRAINT "marketplace_order_status_check" CHECK(("status" = 'pending' OR "status" = 'paid' OR "status" = 'refunded')),
	CONSTRAINT "marketplace_order_amounts_check" CHECK("__new_marketplace_order"."total_price" >= 0 AND "__new_marketplace_order"."platform_fee" >= 0 AND "__new_marketplace_order"."seller_income" >= 0 AND "__new_marketplace_order"."platform_fee" + "__new_marketplace_order"."seller_income" = "__new_marketplace_order"."total_price")
);--> statement-breakpoint
INSERT INTO `__new_marketplace_order`("id", "listing_id", "buyer_id", "seller_id", "asset_type", "asset_id", "total_price", "platform_fee", "seller_income", "status", "created_at", "completed_at", "refunded_at", "refund_reason") SELECT "id", "listing_id", "buyer_id", "seller_id", "asset_type", "asset_id", "total_price", "platform_fee", "seller_income", "status", "created_at", "completed_at", "refunded_at", "refund_reason" FROM `marketplace_order`;--> statement-breakpoint
CREATE TABLE `__new_asset_grant` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`asset_type` text NOT NULL,
	`asset_id` text NOT NULL,
	`order_id` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_id`) REFERENCES `__new_marketplace_order`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "asset_grant_asset_type_check" CHECK(("asset_type" = 'agent' OR "asset_type" = 'knowledge_source' OR "asset_type" = 'document_agent'))
);--> statement-breakpoint
INSERT INTO `__new_asset_grant`("id", "user_id", "asset_type", "asset_id", "order_id", "created_at", "revoked_at") SELECT "id", "user_id", "asset_type", "asset_id", "order_id", "created_at", "revoked_at" FROM `asset_grant`;--> statement-breakpoint
DROP TABLE `asset_grant`;--> statement-breakpoint
DROP TABLE `marketplace_order`;--> statement-breakpoint
ALTER TABLE `__new_marketplace_order` RENAME TO `marketplace_order`;--> statement-breakpoint
ALTER TABLE `__new_asset_grant` RENAME TO `asset_grant`;--> statement-breakpoint
CREATE INDEX `marketplace_order_by_buyer_idx` ON `marketplace_order` (`buyer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `marketplace_order_by_seller_idx` ON `marketplace_order` (`seller_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `marketplace_order_by_listing_buyer_idx` ON `marketplace_order` (`listing_id`,`buyer_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `asset_grant_by_order_idx` ON `asset_grant` (`order_id`);--> statement-breakpoint
CREATE INDEX `asset_grant_by_user_asset_idx` ON `asset_grant` (`user_id`,`asset_type`,`asset_id`);--> statement-breakpoint
CREATE TABLE `__new_wallet_transaction` (
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
	CONSTRAINT "wallet_transaction_type_check" CHECK(("type" = 'topup' OR "type" = 'spend' OR "type" = 'income' OR "type" = 'commission' OR "type" = 'refund' OR "type" = 'refund_reversal' OR "type" = 'withdraw' OR "type" = 'transfer_out' OR "type" = 'transfer_in' OR "type" = 'hold' OR "type" = 'release')),
	CONSTRAINT "wallet_transaction_reference_type_check" CHECK(("reference_type" = 'order' OR "reference_type" = 'transfer' OR "reference_type" = 'withdrawal' OR "reference_type" = 'topup' OR "reference_type" = 'earn_cap')),
	CONSTRAINT "wallet_transaction_after_check" CHECK("__new_wallet_transaction"."balance_after" >= 0 AND "__new_wallet_transaction"."frozen_after" >= 0)
);--> statement-breakpoint
INSERT INTO `__new_wallet_transaction`("id", "seq", "wallet_id", "type", "amount", "balance_after", "frozen_after", "reference_type", "reference_id", "description", "created_at") SELECT "id", "seq", "wallet_id", "type", "amount", "balance_after", "frozen_after", "reference_type", "reference_id", "description", "created_at" FROM `wallet_transaction`;--> statement-breakpoint
DROP TABLE `wallet_transaction`;--> statement-breakpoint
ALTER TABLE `__new_wallet_transaction` RENAME TO `wallet_transaction`;--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_transaction_by_wallet_seq_idx` ON `wallet_transaction` (`wallet_id`,`seq`);--> statement-breakpoint
CREATE INDEX `wallet_transaction_by_transfer_idx` ON `wallet_transaction` (`reference_id`) WHERE "wallet_transaction"."reference_type" = 'transfer';--> statement-breakpoint
DROP INDEX IF EXISTS `wallet_frozen_idx`;
