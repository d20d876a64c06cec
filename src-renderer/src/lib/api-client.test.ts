import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api, setApiToken } from './api-client'

vi.stubGlobal('window', { location: { origin: 'http://console.test' } })

/** fetch answering when the test says so, with a JSON body. */
function heldFetch() {
  let answer: (body: unknown) => void = () => {}
  vi.stubGlobal(
    'fetch',
    () =>
      new Promise<Response>((resolve) => {
        answer = (body) =>
          resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }))
      }),
  )
  return (body: unknown) => answer(body)
}

describe('api client', () => {
  afterEach(() => setApiToken(null))

  it("drops an answer to the signed-out user's request instead of handing it to whoever is signed in now", async () => {
    const answer = heldFetch()
    setApiToken('token-of-ann')
    const read = api.get<{ items: string[] }>('/api/canned-responses')
    setApiToken(null)
    setApiToken('token-of-ben')
    answer({ items: ["ann's private reply"] })
    const refused = await read.catch((caught: unknown) => caught)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 401, code: 'SIGNED_OUT' })
  })

  it('hands over an answer while the same user is signed in, and the answer to a sign-in', async () => {
    const answer = heldFetch()
    setApiToken('token-of-ann')
    const read = api.get<{ items: string[] }>('/api/canned-responses')
    answer({ items: ['reply'] })
    expect(await read).toEqual({ items: ['reply'] })
    setApiToken(null)
    const login = api.post<{ token: string }>('/api/auth/login', { username: 'ben', password: 'x' })
    answer({ token: 'token-of-ben' })
    expect(await login).toEqual({ token: 'token-of-ben' })
  })

  it('keeps the answer to a request sent before anyone signed in, even if someone signed in meanwhile', async () => {
    const answer = heldFetch()
    const read = api.get<{ https: boolean }>('/api/lan')
    setApiToken('token-of-ann')
    answer({ https: true })
    expect(await read).toEqual({ https: true })
  })

  it("refuses a raw answer (a stream, a file) to the signed-out user's request", async () => {
    const answer = heldFetch()
    setApiToken('token-of-ann')
    const file = api.raw('GET', '/api/knowledge-documents/d1/file')
    setApiToken('token-of-ben')
    answer({})
    expect(await file.catch((caught: unknown) => caught)).toMatchObject({ status: 401, code: 'SIGNED_OUT' })
  })
})
