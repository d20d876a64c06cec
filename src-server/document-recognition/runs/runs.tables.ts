import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt, idColumn, jsonText, oneOf, updatedAt } from '../../platform/db'

export const RUNTIME_AGENT_TYPES = ['document_extraction'] as const
export const VERSION_STATUSES = ['draft', 'published', 'retired'] as const
export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const

/** A versioned executable definition; `definition_key` names a shipped definition installed on first start. */
export const runtimeAgent = sqliteTable(
  'runtime_agent',
  {
    id: idColumn(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    publishedVersionId: text('published_version_id'),
    ownerId: text('owner_id'),
    definitionKey: text('definition_key'),
    /** SHA-256 of the shipped definition's config last installed, so a newer release can tell it apart. */
    shippedConfigSha: text('shipped_config_sha'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    oneOf('runtime_agent_type_check', t.type, RUNTIME_AGENT_TYPES),
    uniqueIndex('runtime_agent_definition_key_idx').on(t.definitionKey),
  ],
)

export const runtimeAgentVersion = sqliteTable(
  'runtime_agent_version',
  {
    id: idColumn(),
    agentId: text('agent_id')
      .notNull()
      .references(() => runtimeAgent.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    status: text('status').notNull().default('draft'),
    config: jsonText<unknown>('config_json').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('runtime_agent_version_status_check', t.status, VERSION_STATUSES),
    uniqueIndex('runtime_agent_version_number_idx').on(t.agentId, t.version),
    uniqueIndex('runtime_agent_version_one_published_idx').on(t.agentId).where(sql`status = 'published'`),
  ],
)

/**
 * One execution of a runtime agent over one input file. The source bytes live once in the blob store
 * (`source_sha256`); a rerun points at the same blob.
 */
export const agentRun = sqliteTable(
  'agent_run',
  {
    id: idColumn(),
    runtimeAgentId: text('runtime_agent_id')
      .notNull()
      .references(() => runtimeAgent.id),
    agentVersionId: text('agent_version_id')
      .notNull()
      .references(() => runtimeAgentVersion.id),
    agentTypeSnapshot: text('agent_type_snapshot').notNull(),
    status: text('status').notNull().default('queued'),
    inputSlot: text('input_slot').notNull(),
    sourceSha256: text('source_sha256').notNull(),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    pdfSha256: text('pdf_sha256'),
    pageCount: integer('page_count'),
    output: jsonText<unknown>('output_json'),
    errorMessage: text('error_message'),
    attempts: integer('attempts').notNull().default(0),
    rerunSourceRunId: text('rerun_source_run_id'),
    createdById: text('created_by_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: text('started_at'),
    completedAt: text('completed_at'),
  },
  (t) => [
    oneOf('agent_run_status_check', t.status, RUN_STATUSES),
    index('agent_run_agent_idx').on(t.runtimeAgentId, t.createdAt),
    index('agent_run_rerun_source_idx').on(t.rerunSourceRunId),
    index('agent_run_created_idx').on(t.createdAt),
  ],
)
