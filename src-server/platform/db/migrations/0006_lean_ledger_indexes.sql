-- Fewer index writes per ledger entry (three entries per purchase): the type-and-time index is read by nothing a
-- wallet's seq index cannot serve, and the reference index only ever finds a transfer's other leg
-- (marketplace/marketplace.tables.ts). IF [NOT] EXISTS: a database this already ran on keeps what it has.
DROP INDEX IF EXISTS `wallet_transaction_by_wallet_type_time_idx`;--> statement-breakpoint
DROP INDEX IF EXISTS `wallet_transaction_by_reference_idx`;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `wallet_transaction_by_transfer_idx` ON `wallet_transaction` (`reference_id`) WHERE "wallet_transaction"."reference_type" = 'transfer';
