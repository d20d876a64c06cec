import type { CreateAgentBody } from '@server/conversation/conversation.schemas'
import { create } from 'zustand'
import {
  type Agent,
  agentsApi,
  type Credential,
  type McpServer,
  type ModelCatalogue,
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
}))
