import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { replyBatching } from './reply-batching'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

/** A server on loopback with the batching, and its base URL. */
async function serve(routes: (app: FastifyInstance) => void, batched = true): Promise<string> {
  const server = Fastify()
  app = server
  if (batched) await server.register(replyBatching)
  routes(server)
  await server.listen({ port: 0, host: '127.0.0.1' })
  const address = server.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return `http://127.0.0.1:${address.port}`
}

describe('answers written once per turn of the event loop', () => {
  it('holds an answer past the handler that sent it, then writes it whole', async () => {
    const writtenWhenSent: boolean[] = []
    const base = await serve((server) =>
      server.get('/item', (_request, reply) => {
        reply.send({ ok: true })
        writtenWhenSent.push(reply.raw.headersSent)
      }),
    )
    const response = await fetch(`${base}/item`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
    expect(writtenWhenSent).toEqual([false])
  })

  it('gives each of many concurrent requests its own answer', async () => {
    const base = await serve((server) =>
      server.get<{ Params: { n: string } }>('/echo/:n', async (request) => ({ n: Number(request.params.n) })),
    )
    const numbers = Array.from({ length: 40 }, (_, i) => i)
    const answers = await Promise.all(
      numbers.map((n) => fetch(`${base}/echo/${n}`).then((response) => response.json())),
    )
    expect(answers).toEqual(numbers.map((n) => ({ n })))
  })

  it('answers a reply whose headers cannot be written as an unbatched server does, and the others normally', async () => {
    const routes = (server: FastifyInstance) => {
      server.get('/bad', async (_request, reply) => {
        reply.header('x-broken', 'line\nbreak')
        return { ok: true }
      })
      server.get('/good', async () => ({ ok: true }))
    }
    const call = async (base: string) => {
      const [bad, good] = await Promise.all([fetch(`${base}/bad`), fetch(`${base}/good`)])
      return { bad: [bad.status, await bad.json()], good: [good.status, await good.json()] }
    }
    const unbatched = await call(await serve(routes, false))
    await app?.close()
    const batched = await call(await serve(routes))
    expect(batched.bad[0]).toBe(500)
    expect(batched.good).toEqual([200, { ok: true }])
    expect(batched).toEqual(unbatched)
  })
})
