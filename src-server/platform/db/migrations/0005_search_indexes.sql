-- The search indexes drizzle-kit cannot express (FTS5 tables, triggers). Every statement is IF NOT EXISTS or
-- skips what is there: a database started by an earlier release already holds these objects, made at run time.
-- Marketplace: a contentless FTS5 index of PUBLISHED listings only (rowid = listing.search_id), kept in step by
-- triggers; `facets` holds the asset type and pricing model as tokens (marketplace/listings.repository.ts).
CREATE VIRTUAL TABLE IF NOT EXISTS published_listing_search USING fts5(
  title, description, tags, facets,
  content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS published_listing_search_after_insert AFTER INSERT ON listing
WHEN new.status = 'published' BEGIN
  INSERT INTO published_listing_search (rowid, title, description, tags, facets)
  SELECT new.search_id, new.title, new.description, new.tags_json,
    'at' || replace(new.asset_type, '_', '') || ' pm' || replace(new.pricing_model, '_', '');
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS published_listing_search_after_update
AFTER UPDATE OF title, description, tags_json, asset_type, pricing_model, status ON listing BEGIN
  DELETE FROM published_listing_search WHERE rowid = old.search_id;
  INSERT INTO published_listing_search (rowid, title, description, tags, facets)
  SELECT new.search_id, new.title, new.description, new.tags_json,
    'at' || replace(new.asset_type, '_', '') || ' pm' || replace(new.pricing_model, '_', '')
  WHERE new.status = 'published';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS published_listing_search_after_delete AFTER DELETE ON listing BEGIN
  DELETE FROM published_listing_search WHERE rowid = old.search_id;
END;
--> statement-breakpoint
-- Knowledge: a contentless FTS5 index of chunk titles and content (rowid = knowledge_chunk.seq), written with
-- the chunks and deleted by a trigger. Its definition must stay equal to FTS_DEFINITION in
-- knowledge/chunk-index.repository.ts, which rebuilds an index of an older definition at start.
CREATE VIRTUAL TABLE IF NOT EXISTS knowledge_chunk_fts USING fts5(title, content, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS knowledge_chunk_fts_delete AFTER DELETE ON knowledge_chunk BEGIN
  DELETE FROM knowledge_chunk_fts WHERE rowid = old.seq;
END;
--> statement-breakpoint
-- Deleted chunks are counted so the in-memory vector index (knowledge/vector-index.ts) knows to drop rows.
CREATE TABLE IF NOT EXISTS knowledge_chunk_deletions (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL);
--> statement-breakpoint
INSERT OR IGNORE INTO knowledge_chunk_deletions (id, count) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS knowledge_chunk_count_deletion AFTER DELETE ON knowledge_chunk BEGIN
  UPDATE knowledge_chunk_deletions SET count = count + 1 WHERE id = 1;
END;
--> statement-breakpoint
-- The one-time fill: published listings the index does not hold yet (all of them, unless an earlier release
-- made and filled the index). The knowledge index needs no fill here: chunks are only ever written with it in
-- place, and an index of an older definition is rebuilt from the chunks at start (its titles come from file
-- names by a rule SQL cannot express).
INSERT INTO published_listing_search (rowid, title, description, tags, facets)
SELECT l.search_id, l.title, l.description, l.tags_json,
  'at' || replace(l.asset_type, '_', '') || ' pm' || replace(l.pricing_model, '_', '')
FROM listing l
WHERE l.status = 'published'
  AND NOT EXISTS (SELECT 1 FROM published_listing_search s WHERE s.rowid = l.search_id);
