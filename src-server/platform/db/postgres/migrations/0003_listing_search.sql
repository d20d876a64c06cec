-- The published listings' search documents (marketplace), kept by a trigger as SQLite's FTS5 index is by its
-- triggers (its migration 0005): one row per PUBLISHED listing, title weighted A, tags B, description C, in the
-- 'simple' configuration (case folded, no stemming, as FTS5's unicode61 there).
CREATE FUNCTION published_listing_search_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM published_listing_search WHERE search_id = OLD.search_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'published' THEN
    INSERT INTO published_listing_search (search_id, document)
    VALUES (
      NEW.search_id,
      setweight(to_tsvector('simple', NEW.title), 'A')
        || setweight(to_tsvector('simple', coalesce(
          (SELECT string_agg(tag, ' ') FROM jsonb_array_elements_text(NEW.tags_json) AS tags(tag)), '')), 'B')
        || setweight(to_tsvector('simple', NEW.description), 'C')
    );
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER published_listing_search_after_insert_or_delete AFTER INSERT OR DELETE ON listing
FOR EACH ROW EXECUTE FUNCTION published_listing_search_follow();
--> statement-breakpoint
CREATE TRIGGER published_listing_search_after_update AFTER UPDATE OF status, title, description, tags_json, search_id
ON listing FOR EACH ROW EXECUTE FUNCTION published_listing_search_follow();
