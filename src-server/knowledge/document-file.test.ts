import { parse } from 'content-disposition'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { createSource } from '../../test/helpers/knowledge-files'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

/** A listening server and Olivia, a plain user with a source of her own. */
async function ownerWithSource() {
  server = await startTestServer()
  const owner = await server.headersFor('olivia', ['user'])
  const sourceId = await createSource(server, owner, { name: 'Mine' })
  return { owner, sourceId, url: await server.listen() }
}

describe('document file (opening a cited document)', () => {
  it('keeps a non-ASCII file name sent over real multipart, stored and given back on download', async () => {
    const { owner, sourceId, url } = await ownerWithSource()
    const name = 'Übersicht "Köln" – été 2026.txt'
    const form = new FormData()
    form.append('file', new Blob(['Grüße aus Köln.']), name)
    const uploaded = await fetch(`${url}/knowledge-sources/${sourceId}/documents`, {
      method: 'POST',
      headers: owner,
      body: form,
    })
    expect(uploaded.status).toBe(201)
    const { id } = (await uploaded.json()) as { id: string }
    expect(await server.rows(sql`SELECT file_name FROM knowledge_document WHERE id = ${id}`)).toEqual([
      { file_name: name },
    ])

    const file = await fetch(`${url}/knowledge-sources/${sourceId}/documents/${id}/file`, { headers: owner })
    expect(parse(file.headers.get('content-disposition') ?? '').parameters.filename).toBe(name)
  })

  it('serves the original bytes to whoever may read the source, and 404 to anyone else, even one cited it', async () => {
    const { owner, sourceId, url } = await ownerWithSource()
    const form = new FormData()
    form.append('file', new Blob(['Harbour opens at nine.']), 'harbour notes.txt')
    const uploaded = (await (
      await fetch(`${url}/knowledge-sources/${sourceId}/documents`, {
        method: 'POST',
        headers: owner,
        body: form,
      })
    ).json()) as { id: string }

    const path = `/knowledge-sources/${sourceId}/documents/${uploaded.id}/file`
    const file = await server.app.inject({ method: 'GET', url: path, headers: owner })
    expect(file.statusCode).toBe(200)
    expect(file.body).toBe('Harbour opens at nine.')
    expect(file.headers['content-type']).toContain('text/plain')
    expect(parse(String(file.headers['content-disposition']))).toMatchObject({
      type: 'inline',
      parameters: { filename: 'harbour notes.txt' },
    })

    const stranger = await server.headersFor('sven', ['user'])
    expect((await server.app.inject({ method: 'GET', url: path, headers: stranger })).statusCode).toBe(404)

    // An answer in Sven's own chat cites the document: that grants the passage (citation-access.test.ts), never
    // the whole file, which stays the source's.
    const svenId = (await server.app.inject({ method: 'GET', url: '/api/auth/me', headers: stranger })).json()
      .id
    const sessionId = crypto.randomUUID()
    const citations = JSON.stringify([
      {
        index: 1,
        source_id: sourceId,
        document_id: uploaded.id,
        chunk_id: 'c',
        page_number: null,
        snippet: 'x',
        score: 1,
      },
    ])
    await server.write(
      sql`INSERT INTO chat_session (id, owner_id, created_at, updated_at) VALUES (${sessionId}, ${svenId}, 'now', 'now')`,
    )
    await server.write(
      sql`INSERT INTO chat_message (id, session_id, role, content, status, citations_json, seq, created_at)
          VALUES (${crypto.randomUUID()}, ${sessionId}, 'assistant', 'Nine [1]', 'complete', ${citations}, 1, 'now')`,
    )
    expect((await server.app.inject({ method: 'GET', url: path, headers: stranger })).statusCode).toBe(404)
  })
})
