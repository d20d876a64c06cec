import type { PageResult } from '@server/http/pagination'
import { api } from '../../../lib/api-client'

/**
 * Shapes of the agents, mounts and MCP APIs as the contract (20-conversation, 30-knowledge, 40-evaluation-mcp)
 * defines them. Replace with the server's schema types once those domains export them.
 */
export interface Agent {
  id: string
  name: string
  description: string | null
  agent_type: string
  system_prompt: string | null
  model_provider: string | null
  model_name: string | null
  model_temperature: number | null
  owner: { id: string; username: string }
  created_at: string
  updated_at: string
}

export interface ModelCatalogue {
  providers: { id: string; type: string; models: { id: string; capabilities: string[] }[] }[]
  defaults: { model_provider: string; model_name: string; model_temperature: number }
}

export interface KnowledgeMount {
  source_id: string
  source_name?: string
  is_active: boolean
  priority: number
}

export interface McpServer {
  id: string
  name: string
  description: string | null
  transport: 'stdio' | 'http_sse'
  command: string | null
  args: string[]
  credential_id: string | null
  enabled: boolean
  timeout_ms: number
  last_health: {
    status: string
    checked_at: string
    tools: { name: string; description?: string }[]
    error: string | null
  } | null
}

export interface Credential {
  id: string
  name: string
  description: string | null
  secret_keys: string[]
  created_at: string
  updated_at: string
  rotated_at: string | null
}

export interface ToolMount {
  id: string
  agent_id: string
  mcp_server_id: string
  enabled: boolean
  policy: {
    allowed_tools: string[] | null
    blocked_tools: string[]
    max_calls_per_turn: number
    timeout_ms?: number | null
  }
}

export interface ToolCall {
  id: string
  session_id: string | null
  mcp_server_id: string
  tool_name: string
  outcome: 'success' | 'timeout' | 'error' | 'blocked'
  error: string | null
  duration_ms: number
  created_at: string
}

export interface HealthResult {
  status: 'ok' | 'error'
  latency_ms: number
  tools: { name: string; description?: string }[]
  error: string | null
}

export const agentsApi = {
  agents: () => api.get<PageResult<Agent>>('/agents', { query: { size: 100 } }),
  createAgent: (body: Partial<Agent> & { name: string }) => api.post<Agent>('/agents', body, { quiet: true }),
  updateAgent: (id: string, body: Partial<Agent>) => api.patch<Agent>(`/agents/${id}`, body, { quiet: true }),
  models: () => api.get<ModelCatalogue>('/models'),
  mounts: (agentId: string) => api.get<{ items: KnowledgeMount[] }>(`/agents/${agentId}/mounts`),
  mount: (agentId: string, body: KnowledgeMount) =>
    api.post<KnowledgeMount>(`/agents/${agentId}/mounts`, body),
  unmount: (agentId: string, sourceId: string) => api.delete<void>(`/agents/${agentId}/mounts/${sourceId}`),
  servers: () => api.get<PageResult<McpServer>>('/mcp-servers', { query: { size: 100 } }),
  createServer: (body: {
    name: string
    transport: 'stdio'
    command: string
    args: string[]
    credential_id?: string | null
    timeout_ms?: number
  }) => api.post<McpServer>('/mcp-servers', body, { quiet: true }),
  healthCheck: (id: string) => api.post<HealthResult>(`/mcp-servers/${id}/health-check`),
  credentials: () => api.get<PageResult<Credential>>('/mcp-credentials', { query: { size: 100 } }),
  createCredential: (body: { name: string; description?: string; secret_payload: Record<string, string> }) =>
    api.post<Credential>('/mcp-credentials', body, { quiet: true }),
  rotateCredential: (id: string, secret_payload: Record<string, string>) =>
    api.post<Credential>(`/mcp-credentials/${id}/rotate`, { secret_payload }, { quiet: true }),
  toolMounts: (agentId: string) => api.get<{ items: ToolMount[] }>(`/agents/${agentId}/mcp-mounts`),
  createToolMount: (
    agentId: string,
    body: { mcp_server_id: string; enabled: boolean; policy: ToolMount['policy'] },
  ) => api.post<ToolMount>(`/agents/${agentId}/mcp-mounts`, body, { quiet: true }),
  removeToolMount: (agentId: string, mountId: string) =>
    api.delete<void>(`/agents/${agentId}/mcp-mounts/${mountId}`),
  toolCalls: (agentId: string, outcome?: string) =>
    api.get<PageResult<ToolCall>>(`/agents/${agentId}/mcp-calls`, { query: { size: 50, outcome } }),
}
