import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.stubGlobal('localStorage', { getItem: () => null, setItem() {}, removeItem() {} })
vi.mock('../../../lib/api-client', () => ({
  api: { post: async () => undefined },
  setApiToken() {},
  setUnauthorizedHandler() {},
}))
vi.mock('../api/chat-api', () => ({
  chatApi: {
    cannedResponses: async () => ({
      items: [{ id: 'c1', shortcut: 'mine', content: 'private', shared: false }],
    }),
    operators: async () => ({ items: [{ id: 'u1', username: 'ann' }] }),
  },
}))

const { useOperatorTools } = await import('./operator-tools-store')
const { useSession } = await import('../../../stores/session-store')

describe('operator tools store', () => {
  beforeEach(() => useSession.setState({ status: 'signed-in', user: null }))

  it("forgets the signed-out operator's saved replies and colleagues, so the next user never sees them", async () => {
    await useOperatorTools.getState().load()
    expect(useOperatorTools.getState().canned.map((item) => item.content)).toEqual(['private'])
    await useSession.getState().signOut()
    expect(useSession.getState().status).toBe('signed-out')
    expect(useOperatorTools.getState()).toMatchObject({ canned: [], operators: [] })
  })
})
