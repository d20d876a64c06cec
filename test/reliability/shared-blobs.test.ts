import { PDFDocument, StandardFonts } from 'pdf-lib'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server'

let server: TestServer
afterEach(async () => server?.close())

describe('blobs shared across domains', () => {
  it('keeps a recognition source when a knowledge document with the same bytes is deleted', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    const url = await server.listen()
    const pdf = await PDFDocument.create()
    pdf.addPage([400, 400]).drawText('Receipt No: R-1  Total: 4.20', {
      x: 40,
      y: 300,
      size: 12,
      font: await pdf.embedFont(StandardFonts.Helvetica),
    })
    const bytes = await pdf.save()

    const agents = (await (
      await fetch(`${url}/document-recognition/runtime-agents`, { headers })
    ).json()) as {
      items: { runtime_agent_id: string; display_name: string }[]
    }
    const runForm = new FormData()
    runForm.append(
      'runtime_agent_id',
      agents.items.find((a) => a.display_name === 'Receipt extractor')?.runtime_agent_id ?? '',
    )
    runForm.append('file', new Blob([bytes], { type: 'application/pdf' }), 'receipt.pdf')
    const run = (await (
      await fetch(`${url}/document-recognition/runs`, { method: 'POST', headers, body: runForm })
    ).json()) as { id: string }

    const source = (await (
      await fetch(`${url}/knowledge-sources`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Same bytes' }),
      })
    ).json()) as { id: string }
    const docForm = new FormData()
    docForm.append('file', new Blob([bytes], { type: 'application/pdf' }), 'receipt.pdf')
    const document = (await (
      await fetch(`${url}/knowledge-sources/${source.id}/documents`, {
        method: 'POST',
        headers,
        body: docForm,
      })
    ).json()) as { id: string }
    expect(
      (
        await fetch(`${url}/knowledge-sources/${source.id}/documents/${document.id}`, {
          method: 'DELETE',
          headers,
        })
      ).status,
    ).toBe(204)

    const original = await fetch(`${url}/document-recognition/runs/${run.id}/source-document`, { headers })
    expect(original.status).toBe(200)
    expect(Buffer.from(await original.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
  })
})
