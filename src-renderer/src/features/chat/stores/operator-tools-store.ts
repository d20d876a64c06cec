import { create } from 'zustand'
import { forgetOnSignOut } from '../../../stores/session-store'
import { chatApi } from '../api/chat-api'
import type { CannedResponse } from '../api/chat-types'

interface OperatorToolsState {
  /** The operator's saved replies and the shared ones, inserted with `/` in the composer. */
  canned: CannedResponse[]
  /** Who a session can be assigned to. */
  operators: { id: string; username: string }[]
  /** Both lists, read when an operator opens a conversation (the screen shows the load's failure). */
  load(): Promise<void>
  addCanned(body: { shortcut: string; content: string; shared: boolean }): Promise<void>
  deleteCanned(id: string): Promise<void>
}

/** What an operator answers and assigns with, the same for every conversation they open. */
export const useOperatorTools = create<OperatorToolsState>((set, get) => {
  const loadCanned = async () => set({ canned: (await chatApi.cannedResponses()).items })
  return {
    canned: [],
    operators: [],
    async load() {
      const [canned, operators] = await Promise.all([chatApi.cannedResponses(), chatApi.operators()])
      set({ canned: canned.items, operators: operators.items })
    },
    async addCanned(body) {
      await chatApi.createCannedResponse(body)
      await loadCanned()
    },
    async deleteCanned(id) {
      await chatApi.deleteCannedResponse(id)
      set({ canned: get().canned.filter((item) => item.id !== id) })
    },
  }
})

forgetOnSignOut(useOperatorTools)
