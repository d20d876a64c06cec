import type { AgentRunRow, RuntimeAgentRow, RuntimeAgentVersionRow } from './runs.repository'
import type { RuntimeAgentVersionView, RuntimeAgentView } from './runs.schemas'

export function presentRuntimeAgentVersion(row: RuntimeAgentVersionRow): RuntimeAgentVersionView {
  return {
    id: row.id,
    agent_id: row.agentId,
    version: row.version,
    status: row.status as RuntimeAgentVersionView['status'],
    config: row.config,
    created_at: row.createdAt,
  }
}

export function presentRuntimeAgent(row: RuntimeAgentRow, usernames: Map<string, string>): RuntimeAgentView {
  const username = row.ownerId ? usernames.get(row.ownerId) : undefined
  return {
    id: row.id,
    name: row.name,
    type: row.type as RuntimeAgentView['type'],
    published_version_id: row.publishedVersionId,
    owner: row.ownerId && username ? { id: row.ownerId, username } : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

export function presentAgentRun(row: AgentRunRow) {
  return {
    id: row.id,
    runtime_agent_id: row.runtimeAgentId,
    agent_version_id: row.agentVersionId,
    runtime_agent_type_snapshot: row.agentTypeSnapshot as 'document_extraction',
    status: row.status as 'queued' | 'running' | 'completed' | 'failed',
    input_slot: row.inputSlot,
    file_name: row.fileName,
    mime_type: row.mimeType,
    page_count: row.pageCount,
    output: row.output ?? null,
    error_message: row.errorMessage,
    attempts: row.attempts,
    rerun_source_run_id: row.rerunSourceRunId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    completed_at: row.completedAt,
  }
}
