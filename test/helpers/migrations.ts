import type { Database } from 'better-sqlite3'

/**
 * How to undo each migration that cannot simply run twice, by its position (0-based, as in the journal). A test
 * that replays an older migration on a database as an earlier release left it undoes the later ones first; a new
 * migration that adds or drops a column adds its undo here.
 */
const UNDO_BY_MIGRATION: Record<number, string> = {
  9: `DROP INDEX mcp_credential_owner_name_idx; ALTER TABLE mcp_credential DROP COLUMN owner_id;
      CREATE UNIQUE INDEX mcp_credential_name_idx ON mcp_credential (name);
      ALTER TABLE mcp_server DROP COLUMN env_names_json;`,
  10: 'ALTER TABLE wallet DROP COLUMN holds_json; ALTER TABLE marketplace_order DROP COLUMN refundable_until;',
  11: 'ALTER TABLE wallet ADD held_on_day integer DEFAULT 0 NOT NULL;',
  12: 'ALTER TABLE job DROP COLUMN crashes;',
  14: `ALTER TABLE agent DROP COLUMN audience; ALTER TABLE agent DROP COLUMN audience_roles_json;
      ALTER TABLE chat_session DROP COLUMN topic;`,
  15: 'ALTER TABLE user DROP COLUMN must_change_password;',
  16: `DROP INDEX admin_audit_log_by_actor_idx; DROP INDEX admin_audit_log_by_action_idx;
      ALTER TABLE admin_audit_log DROP COLUMN reason;`,
  17: 'ALTER TABLE document_learned_hint DROP COLUMN value_words;',
  18: 'DROP TABLE operator_presence;',
  19: 'DROP TABLE rate_limit_window;',
}

/**
 * Takes the database back to the schema of the release that had only the first `kept` migrations (newest undone
 * first) and forgets the rest, so the next start applies them again.
 */
export function rewindMigrations(sqlite: Database, kept: number): void {
  const applied = (sqlite.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get() as number) - 1
  for (let index = applied; index >= kept; index -= 1) {
    const undo = UNDO_BY_MIGRATION[index]
    if (undo) sqlite.exec(undo)
  }
  sqlite
    .prepare(
      `DELETE FROM __drizzle_migrations
       WHERE created_at >= (SELECT created_at FROM __drizzle_migrations ORDER BY created_at LIMIT 1 OFFSET ?)`,
    )
    .run(kept)
}
