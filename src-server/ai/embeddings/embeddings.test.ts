import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { BUILTIN_EMBEDDING_DIM, builtinEmbed } from './builtin-embedder'
import { createOpenAiEmbedder } from './openai-embedder'

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, value, i) => sum + value * (b[i] as number), 0)

describe('builtin embedder', () => {
  it('is deterministic, L2-normalised and of the documented dimension', () => {
    const a = builtinEmbed('The Normans settled in Normandy.')
    expect(a).toHaveLength(BUILTIN_EMBEDDING_DIM)
    expect(Array.from(a)).toEqual(Array.from(builtinEmbed('The Normans settled in Normandy.')))
    expect(cosine(a, a)).toBeCloseTo(1, 5)
    expect(Array.from(builtinEmbed('!!!')).every((value) => value === 0)).toBe(true)
  })

  it('places related texts closer than unrelated ones, across inflections and CJK', () => {
    const query = builtinEmbed('Where did the Normans settle?')
    expect(cosine(query, builtinEmbed('The Norman settlers came to Normandy.'))).toBeGreaterThan(
      cosine(query, builtinEmbed('Photosynthesis converts light into chemical energy.')),
    )
    const tokyo = builtinEmbed('東京は日本の首都です')
    expect(cosine(tokyo, builtinEmbed('日本の首都は東京'))).toBeGreaterThan(
      cosine(tokyo, builtinEmbed('巴黎是法国的首都')),
    )
  })
})

describe('OpenAI-compatible embedder', () => {
  let server: Server | undefined
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

  it('calls /embeddings over HTTP, keeps input order and normalises the vectors', async () => {
    const requests: { model: string; input: string[] }[] = []
    server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => {
        body += chunk
      })
      request.on('end', () => {
        const parsed = JSON.parse(body) as { model: string; input: string[] }
        requests.push(parsed)
        const data = parsed.input.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: [text.length, 0, 3],
        }))
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ object: 'list', data: data.reverse(), model: parsed.model, usage: {} }))
      })
    }).listen(0, '127.0.0.1')
    await new Promise((resolve) => server?.once('listening', resolve))
    const port = (server.address() as AddressInfo).port
    const embedder = createOpenAiEmbedder({
      baseURL: `http://127.0.0.1:${port}/v1`,
      apiKey: 'k',
      model: 'tiny',
    })
    expect(embedder.dim()).toBeNull()
    const [four, zero] = await embedder.embed(['four', ''])
    expect(requests).toEqual([{ model: 'tiny', input: ['four', ''], encoding_format: 'float' }])
    expect(Array.from(four as Float32Array)).toEqual([0.800000011920929, 0, 0.6000000238418579])
    expect(Array.from(zero as Float32Array)).toEqual([0, 0, 1])
    expect(embedder.dim()).toBe(3)
  })
})
