import { deflateSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server'

/** CRC-32 as PNG chunks need it. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A tiny PNG that declares 60,000 × 60,000 pixels (3.6 gigapixels) of which it carries almost nothing. */
function pixelBombPng(): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(60_000, 0)
  header.writeUInt32BE(60_000, 4)
  header.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** A PDF whose only page content inflates from a few hundred KB to 64 MB of operators. */
function inflationBombPdf(): Buffer {
  const content = deflateSync(Buffer.alloc(64 * 1024 * 1024, 0x20))
  const parts: Buffer[] = []
  const offsets: number[] = []
  const push = (text: string | Buffer) =>
    parts.push(typeof text === 'string' ? Buffer.from(text, 'latin1') : text)
  const size = () => parts.reduce((n, part) => n + part.length, 0)
  push('%PDF-1.7\n')
  const object = (id: number, body: string, stream?: Buffer) => {
    offsets[id] = size()
    push(`${id} 0 obj\n${body}\n`)
    if (stream) {
      push('stream\n')
      push(stream)
      push('\nendstream\n')
    }
    push('endobj\n')
  }
  object(1, '<< /Type /Catalog /Pages 2 0 R >>')
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>')
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>')
  object(4, `<< /Length ${content.length} /Filter /FlateDecode >>`, content)
  const xref = size()
  push(
    `xref\n0 5\n0000000000 65535 f \n${[1, 2, 3, 4].map((id) => `${String(offsets[id]).padStart(10, '0')} 00000 n \n`).join('')}`,
  )
  push(`trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`)
  return Buffer.concat(parts)
}

let server: TestServer
let url: string
let headers: Record<string, string>
beforeAll(async () => {
  server = await startTestServer()
  url = await server.listen()
  headers = await server.adminHeaders()
})
afterAll(async () => server.close())

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

describe('malicious files', () => {
  it('refuses or cleanly fails an image that declares billions of pixels', async () => {
    const agents = (await (
      await fetch(`${url}/document-recognition/runtime-agents`, { headers })
    ).json()) as {
      items: { runtime_agent_id: string; display_name: string }[]
    }
    const receipt = agents.items.find((agent) => agent.display_name === 'Receipt extractor')
    const form = new FormData()
    form.append('runtime_agent_id', receipt?.runtime_agent_id ?? '')
    form.append('file', new Blob([pixelBombPng()], { type: 'image/png' }), 'huge.png')
    const response = await fetch(`${url}/document-recognition/runs`, { method: 'POST', headers, body: form })
    expect(response.status).toBeLessThan(500)
    if (response.status === 202) {
      const run = (await response.json()) as { id: string }
      const settled = await poll(
        async () =>
          (await (await fetch(`${url}/document-recognition/runs/${run.id}`, { headers })).json()) as {
            status: string
            error_message: string | null
          },
        (r) => r.status === 'completed' || r.status === 'failed',
      )
      expect(settled.status).toBe('failed')
      expect(settled.error_message).toBeTruthy()
    }
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
  }, 180_000)

  it('survives a PDF whose content stream inflates to 64 MB', async () => {
    const source = (await (
      await fetch(`${url}/knowledge-sources`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bombs' }),
      })
    ).json()) as { id: string }
    const form = new FormData()
    form.append('file', new Blob([inflationBombPdf()], { type: 'application/pdf' }), 'bomb.pdf')
    const upload = await fetch(`${url}/knowledge-sources/${source.id}/documents`, {
      method: 'POST',
      headers,
      body: form,
    })
    expect(upload.status).toBeLessThan(500)
    if (upload.status < 300) {
      const job = (await (
        await fetch(`${url}/knowledge-sources/${source.id}/ingest`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{}',
        })
      ).json()) as { id: string }
      const settled = await poll(
        async () =>
          (await (await fetch(`${url}/ingestion-jobs/${job.id}`, { headers })).json()) as { status: string },
        (j) => j.status === 'succeeded' || j.status === 'failed',
      )
      expect(['succeeded', 'failed']).toContain(settled.status)
    }
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
  }, 180_000)
})
