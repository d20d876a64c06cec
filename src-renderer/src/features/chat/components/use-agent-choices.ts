import { useState } from 'react'
import { useLoad } from '../../../lib/use-load'
import { chatApi } from '../api/chat-api'
import type { Agent } from '../api/chat-types'

/**
 * The agents a chat can be started with. The load state lets a picker show a failure with Retry instead of a
 * list that only looks empty.
 */
export function useAgentChoices() {
  const [agents, setAgents] = useState<Agent[]>([])
  const load = useLoad(async () => setAgents((await chatApi.agents()).items), [])
  return { agents, load }
}
