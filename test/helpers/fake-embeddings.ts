import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback OpenAI-compatible `/embeddings` endpoint: 8-dimensional letter-count vectors. `hold(which)` keeps
 * the requests it selects (default: all) waiting until `release(n)` lets n of them through (or `release()` all),
 * so a test can look at a source whose vectors are not there yet while queries are still embedded.
 */
export interface FakeEmbeddings {
  url: string
  /** Texts embedded and answered so far. */
  answered: string[]
  hold(which?: (texts: string[]) => boolean): void
  release(requests?: number): void
  /** Forgets the requests held so far unanswered (their client is gone). */
  discardHeld(): void
  /** Resolves once `n` requests are waiting. */
  waiting(n: number): Promise<void>
  close(): Promise<void>
}

export const letterVector = (text: string) =>
  Array.from(
    { length: 8 },
    (_, i) => 1 + [...text.toLowerCase()].filter((c) => c.charCodeAt(0) % 8 === i).length,
  )

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const answered: string[] = []
  const queue: (() => void)[] = []
  let held = false
  let holds: (texts: string[]) => boolean = () => true
  let allowance = 0
  const answer = (response: ServerResponse, body: string) => {
    // The client gave up (its job was stopped): nothing was answered.
    if (response.destroyed) return
    const input = (JSON.parse(body) as { input: string[] }).input
    answered.push(...input)
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: letterVector(text) }))
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ object: 'list', data, model: 'letters', usage: {} }))
  }
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const go = () => answer(response, body)
      if (!held || !holds((JSON.parse(body) as { input: string[] }).input)) go()
      else if (allowance > 0) {
        allowance--
        go()
      } else queue.push(go)
    })
  }).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    answered,
    hold: (which) => {
      held = true
      if (which) holds = which
    },
    discardHeld: () => {
      queue.length = 0
    },
    release(requests) {
      if (requests === undefined) held = false
      else allowance += requests
      while (queue.length > 0 && (!held || allowance > 0)) {
        if (held) allowance--
        queue.shift()?.()
      }
    },
    async waiting(n) {
      while (queue.length < n) await new Promise((resolve) => setTimeout(resolve, 20))
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
