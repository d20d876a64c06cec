import type { ModelCatalogueSchema } from '@server/ai/ai.schemas'
import type { AgentView, CreateAgentBody, UpdateAgentBody } from '@server/conversation/conversation.schemas'
import type { CreateMountBody, MountDto } from '@server/knowledge/knowledge.schemas'
import type {
  CreateMcpCredentialBody,
  CreateMcpMountBody,
  CreateMcpServerBody,
  HealthCheckResult,
  McpCallView,
  McpCredentialView,
  McpMountView,
  McpServerView,
} from '@server/mcp/mcp.schemas'
import type { PageResult } from '@server/platform/http/pagination'
import type { Static } from 'typebox'
import { api } from '../../../lib/api-client'

export type Agent = AgentView
export type ModelCatalogue = Static<typeof ModelCatalogueSchema>
export type KnowledgeMount = MountDto
export type McpServer = McpServerView
export type Credential = McpCredentialView
export type ToolMount = McpMountView
export type ToolCall = McpCallView
export type HealthResult = Static<typeof HealthCheckResult>

export const agentsApi = {
  agents: () => api.get<PageResult<Agent>>('/agents', { query: { size: 100 } }),
  createAgent: (body: CreateAgentBody) => api.post<Agent>('/agents', body),
  updateAgent: (id: string, body: UpdateAgentBody) => api.patch<Agent>(`/agents/${id}`, body),
  models: () => api.get<ModelCatalogue>('/models'),
  /** Knowledge sources an agent could mount. */
  sources: () =>
    api.get<PageResult<{ id: string; name: string }>>('/knowledge-sources', { query: { size: 100 } }),
  mounts: (agentId: string) => api.get<{ items: KnowledgeMount[] }>(`/agents/${agentId}/mounts`),
  mount: (agentId: string, body: CreateMountBody) =>
    api.post<KnowledgeMount>(`/agents/${agentId}/mounts`, body),
  unmount: (agentId: string, sourceId: string) => api.delete<void>(`/agents/${agentId}/mounts/${sourceId}`),
  servers: () => api.get<PageResult<McpServer>>('/mcp-servers', { query: { size: 100 } }),
  createServer: (body: CreateMcpServerBody) => api.post<McpServer>('/mcp-servers', body),
  healthCheck: (id: string) => api.post<HealthResult>(`/mcp-servers/${id}/health-check`),
  credentials: () => api.get<PageResult<Credential>>('/mcp-credentials', { query: { size: 100 } }),
  createCredential: (body: CreateMcpCredentialBody) => api.post<Credential>('/mcp-credentials', body),
  rotateCredential: (id: string, secret_payload: Record<string, string>) =>
    api.post<Credential>(`/mcp-credentials/${id}/rotate`, { secret_payload }),
  toolMounts: (agentId: string) => api.get<{ items: ToolMount[] }>(`/agents/${agentId}/mcp-mounts`),
  createToolMount: (agentId: string, body: CreateMcpMountBody) =>
    api.post<ToolMount>(`/agents/${agentId}/mcp-mounts`, body),
  removeToolMount: (agentId: string, mountId: string) =>
    api.delete<void>(`/agents/${agentId}/mcp-mounts/${mountId}`),
  toolCalls: (agentId: string, outcome?: string) =>
    api.get<PageResult<ToolCall>>(`/agents/${agentId}/mcp-calls`, { query: { size: 50, outcome } }),
}
