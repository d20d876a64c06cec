-- The number of listings of each status, asset type and pricing model, kept in step with `listing` by triggers in
-- the same transaction as every change of it (marketplace/marketplace.tables.ts `listingCount`): a page of
-- listings without a keyword or a seller sums a few of these rows for its total instead of counting every listing
-- of the status. Safe to run again over a database that has them (the migration tests replay later migrations):
-- it counts anew and keeps the triggers it finds.
CREATE TABLE IF NOT EXISTS `listing_count` (
	`status` text NOT NULL,
	`asset_type` text NOT NULL,
	`pricing_model` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`status`, `asset_type`, `pricing_model`)
);
--> statement-breakpoint
DELETE FROM listing_count;
--> statement-breakpoint
INSERT INTO listing_count (status, asset_type, pricing_model, n)
SELECT status, asset_type, pricing_model, count(*) FROM listing GROUP BY status, asset_type, pricing_model;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS listing_count_after_insert AFTER INSERT ON listing BEGIN
  INSERT INTO listing_count (status, asset_type, pricing_model, n)
  VALUES (new.status, new.asset_type, new.pricing_model, 1)
  ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS listing_count_after_update AFTER UPDATE OF status, asset_type, pricing_model ON listing
WHEN old.status IS NOT new.status OR old.asset_type IS NOT new.asset_type OR old.pricing_model IS NOT new.pricing_model
BEGIN
  UPDATE listing_count SET n = n - 1
  WHERE status = old.status AND asset_type = old.asset_type AND pricing_model = old.pricing_model;
  INSERT INTO listing_count (status, asset_type, pricing_model, n)
  VALUES (new.status, new.asset_type, new.pricing_model, 1)
  ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS listing_count_after_delete AFTER DELETE ON listing BEGIN
  UPDATE listing_count SET n = n - 1
  WHERE status = old.status AND asset_type = old.asset_type AND pricing_model = old.pricing_model;
END;
