-- The counters SQLite keeps by triggers (its migrations 0005 and 0008), kept the same way here.
-- Deleted knowledge chunks, counted for the in-memory vector index.
INSERT INTO knowledge_chunk_deletions (id, count) VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION knowledge_chunk_count_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE knowledge_chunk_deletions SET count = count + 1 WHERE id = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER knowledge_chunk_count_deletion AFTER DELETE ON knowledge_chunk
FOR EACH ROW EXECUTE FUNCTION knowledge_chunk_count_deletion();
--> statement-breakpoint
-- Listings of each status, asset type and pricing model (marketplace.tables.ts `listingCount`).
CREATE FUNCTION listing_count_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE listing_count SET n = n - 1
    WHERE status = OLD.status AND asset_type = OLD.asset_type AND pricing_model = OLD.pricing_model;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO listing_count (status, asset_type, pricing_model, n)
    VALUES (NEW.status, NEW.asset_type, NEW.pricing_model, 1)
    ON CONFLICT (status, asset_type, pricing_model) DO UPDATE SET n = listing_count.n + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER listing_count_after_insert_or_delete AFTER INSERT OR DELETE ON listing
FOR EACH ROW EXECUTE FUNCTION listing_count_follow();
--> statement-breakpoint
CREATE TRIGGER listing_count_after_update AFTER UPDATE OF status, asset_type, pricing_model ON listing
FOR EACH ROW WHEN ((OLD.status, OLD.asset_type, OLD.pricing_model) IS DISTINCT FROM (NEW.status, NEW.asset_type, NEW.pricing_model))
EXECUTE FUNCTION listing_count_follow();
