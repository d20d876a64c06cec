import type { CreateAgentBody } from '@server/conversation/conversation.schemas'
import type { CreateMountBody } from '@server/knowledge/knowledge.schemas'
import type { CreateMcpMountBody } from '@server/mcp/mcp.schemas'
import { create } from 'zustand'
import { forgetOnSignOut } from '../../../stores/session-store'
import {
  type Agent,
  agentsApi,
  type Credential,
  type KnowledgeMount,
  type McpServer,
  type ModelCatalogue,
  type ToolCall,
  type ToolMount,
} from '../api/agents-api'

interface AgentsState {
  agents: Agent[]
  selectedId: string | null
  models: ModelCatalogue | null
  servers: McpServer[]
  credentials: Credential[]
  load(): Promise<void>
  select(id: string | null): void
  save(id: string | null, body: CreateAgentBody): Promise<void>
  loadTools(): Promise<void>
  /** The shown agent's knowledge mounts, and the sources it could mount. */
  mounts: KnowledgeMount[]
  sources: { id: string; name: string }[]
  loadMounts(agentId: string): Promise<void>
  mount(agentId: string, body: CreateMountBody): Promise<void>
  /** A new priority or active flag is a remount: the API has no update for mounts. */
  remount(agentId: string, mount: KnowledgeMount, patch: Partial<CreateMountBody>): Promise<void>
  unmount(agentId: string, sourceId: string): Promise<void>
  /** The shown agent's tool mounts and its recent tool calls (of one outcome, or all). */
  toolMounts: ToolMount[]
  toolCalls: ToolCall[]
  loadToolUse(agentId: string, outcome: string): Promise<void>
  mountTool(agentId: string, body: CreateMcpMountBody): Promise<void>
  removeToolMount(agentId: string, mountId: string): Promise<void>
}

export const useAgents = create<AgentsState>((set, get) => ({
  agents: [],
  selectedId: null,
  models: null,
  servers: [],
  credentials: [],
  async load() {
    const [agents, models] = await Promise.all([agentsApi.agents(), agentsApi.models()])
    set({ agents: agents.items, models })
    if (!get().selectedId && agents.items[0]) set({ selectedId: agents.items[0].id })
  },
  select(id) {
    set({ selectedId: id })
  },
  async save(id, body) {
    const saved = id
      ? await agentsApi.updateAgent(id, body)
      : await agentsApi.createAgent({ agent_type: 'chat', ...body })
    const others = get().agents.filter((agent) => agent.id !== saved.id)
    set({ agents: [saved, ...others], selectedId: saved.id })
  },
  async loadTools() {
    const [servers, credentials] = await Promise.all([agentsApi.servers(), agentsApi.credentials()])
    set({ servers: servers.items, credentials: credentials.items })
  },
  mounts: [],
  sources: [],
  async loadMounts(agentId) {
    const [mounts, sources] = await Promise.all([agentsApi.mounts(agentId), agentsApi.sources()])
    set({ mounts: mounts.items, sources: sources.items })
  },
  async mount(agentId, body) {
    await agentsApi.mount(agentId, body)
    set({ mounts: (await agentsApi.mounts(agentId)).items })
  },
  async remount(agentId, mount, patch) {
    // Two calls: whichever fails, the list shown afterwards is the server's.
    try {
      await agentsApi.unmount(agentId, mount.source_id)
      await agentsApi.mount(agentId, {
        source_id: mount.source_id,
        is_active: mount.is_active,
        priority: mount.priority,
        ...patch,
      })
    } finally {
      set({ mounts: (await agentsApi.mounts(agentId)).items })
    }
  },
  async unmount(agentId, sourceId) {
    await agentsApi.unmount(agentId, sourceId)
    set({ mounts: (await agentsApi.mounts(agentId)).items })
  },
  toolMounts: [],
  toolCalls: [],
  async loadToolUse(agentId, outcome) {
    const [mounts, calls] = await Promise.all([
      agentsApi.toolMounts(agentId),
      agentsApi.toolCalls(agentId, outcome || undefined),
    ])
    set({ toolMounts: mounts.items, toolCalls: calls.items })
  },
  async mountTool(agentId, body) {
    await agentsApi.createToolMount(agentId, body)
    set({ toolMounts: (await agentsApi.toolMounts(agentId)).items })
  },
  async removeToolMount(agentId, mountId) {
    await agentsApi.removeToolMount(agentId, mountId)
    set({ toolMounts: (await agentsApi.toolMounts(agentId)).items })
  },
}))

forgetOnSignOut(useAgents)
