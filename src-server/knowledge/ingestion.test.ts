import { type SQL, sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { TEST_ENGINE } from '../../test/helpers/engine'
import {
  createSource,
  ingest,
  makeDocx,
  makeEncryptedPdf,
  makePdf,
  upload,
} from '../../test/helpers/knowledge-files'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { vectorTableOf } from './chunk-index.repository'
import { CHUNKING_STRATEGIES } from './chunking/params'

let server: TestServer
afterEach(async () => server?.close())

const HASHING_VECTORS = vectorTableOf('builtin:hashing-v2:512')
/** A count of stored rows on the engine the knowledge domain runs on. */
const storedCount = async (query: SQL) => Number((await server.rows<{ n: number | string }>(query))[0]?.n)
/** The chunks the full-text index finds for one word: FTS5 on SQLite, the tsvector table on PostgreSQL. */
const indexedWith = (word: string) =>
  storedCount(
    TEST_ENGINE === 'sqlite'
      ? sql`SELECT count(*) AS n FROM knowledge_chunk_fts WHERE knowledge_chunk_fts MATCH ${word}`
      : sql`SELECT count(*) AS n FROM knowledge_chunk_search WHERE document @@ plainto_tsquery('simple', ${word})`,
  )
/** The builtin embedder's stored vectors: its vec0 table on SQLite, its rows of the vector table on PostgreSQL. */
const storedVectors = () =>
  storedCount(
    TEST_ENGINE === 'sqlite'
      ? sql`SELECT count(*) AS n FROM ${sql.identifier(HASHING_VECTORS)}`
      : sql`SELECT count(*) AS n FROM knowledge_chunk_vector WHERE embedding_key = 'builtin:hashing-v2:512'`,
  )
const chunkCount = () => storedCount(sql`SELECT count(*) AS n FROM knowledge_chunk`)

async function everyKind() {
  return [
    {
      name: 'notes.txt',
      data: Buffer.from('Plain text about walruses and their tusks.\n\nSecond paragraph on ice floes.'),
    },
    {
      name: 'guide.md',
      data: Buffer.from('# Guide\n\nMarkdown explains the **lighthouse** keeper routine.'),
    },
    {
      name: 'page.html',
      data: Buffer.from(
        '<html><head><title>x</title><style>p{color:red}</style></head><body><h1>Volcano</h1><p>Magma &amp; basalt columns.</p><script>alert(1)</script></body></html>',
      ),
    },
    { name: 'table.csv', data: Buffer.from('city,river\nParis,Seine\nCairo,Nile\n') },
    {
      name: 'manual.pdf',
      data: await makePdf([
        'Chapter one covers the reactor startup.',
        'Chapter two covers the turbine inspection checklist.',
        'Chapter three covers shutdown.',
      ]),
    },
    {
      name: 'memo.docx',
      data: makeDocx(['The quarterly memo discusses saffron imports.', 'Second paragraph.']),
    },
  ]
}

describe('documents', () => {
  it('accepts every supported kind, stores bytes in the blob store and answers a re-upload with the same document', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, headers)
    const files = await everyKind()
    const created = await upload(server, headers, sourceId, files)
    expect(created.statusCode).toBe(201)
    const items = created.json().items as { id: string; mime_type: string; status: string; sha256: string }[]
    expect(items.map((item) => item.mime_type)).toEqual([
      'text/plain',
      'text/markdown',
      'text/html',
      'text/csv',
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ])
    expect(items.every((item) => item.status === 'uploaded')).toBe(true)
    for (const item of items) expect(server.app.ctx.blobs.has(item.sha256)).toBe(true)

    const again = await upload(server, headers, sourceId, [files[0] as { name: string; data: Buffer }])
    expect(again.statusCode).toBe(200)
    expect(again.json().id).toBe(items[0]?.id)
    expect(
      await storedCount(sql`SELECT count(*) AS n FROM knowledge_document WHERE source_id = ${sourceId}`),
    ).toBe(6)

    const list = await server.app.inject({
      method: 'GET',
      url: `/knowledge-sources/${sourceId}/documents`,
      headers,
    })
    expect(list.json()).toMatchObject({ total: 6, page: 1, size: 20 })
    const source = await server.app.inject({ method: 'GET', url: `/knowledge-sources/${sourceId}`, headers })
    expect(source.json().document_count).toBe(6)
  })

  it.each([
    [
      'a binary renamed .pdf',
      'fake.pdf',
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]),
      415,
      'UNSUPPORTED_FILE_TYPE',
    ],
    [
      'a binary renamed .txt',
      'fake.txt',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]),
      415,
      'UNSUPPORTED_FILE_TYPE',
    ],
    ['a text file renamed .docx', 'fake.docx', Buffer.from('just text'), 415, 'UNSUPPORTED_FILE_TYPE'],
    ['an unaccepted extension', 'tool.exe', Buffer.from('MZ'), 415, 'UNSUPPORTED_FILE_TYPE'],
    ['a 0-byte file', 'empty.txt', Buffer.alloc(0), 422, 'EMPTY_FILE'],
  ])('rejects %s and stores nothing', async (_, name, data, status, code) => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, headers)
    const response = await upload(server, headers, sourceId, [
      { name: 'good.txt', data: Buffer.from('fine') },
      { name, data },
    ])
    expect(response.statusCode).toBe(status)
    expect(response.json().error.code).toBe(code)
    expect(await storedCount(sql`SELECT count(*) AS n FROM knowledge_document`)).toBe(0)
  })

  it("answers an upload to a missing or someone else's source with 404 and a JSON body with 415", async () => {
    server = await startTestServer()
    const owner = await server.headersFor('uma', ['user'])
    const stranger = await server.headersFor('sam', ['user'])
    const sourceId = await createSource(server, owner)
    const file = [{ name: 'a.txt', data: Buffer.from('text') }]
    expect((await upload(server, stranger, sourceId, file)).json().error.code).toBe(
      'KNOWLEDGE_SOURCE_NOT_FOUND',
    )
    const missing = await upload(server, owner, '00000000-0000-4000-8000-000000000000', file)
    expect(missing.statusCode).toBe(404)
    const json = await server.app.inject({
      method: 'POST',
      url: `/knowledge-sources/${sourceId}/documents`,
      headers: owner,
      payload: { file: 'a.txt' },
    })
    expect(json.statusCode).toBe(415)
    const wrongField = await upload(server, owner, sourceId, [
      { name: 'a.txt', data: Buffer.from('x'), field: 'doc' },
    ])
    expect(wrongField.json().error.code).toBe('NO_FILE')
    expect(await storedCount(sql`SELECT count(*) AS n FROM knowledge_document`)).toBe(0)
  })

  it('answers an upload above the size limit with 413 FILE_TOO_LARGE', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, headers)
    const response = await upload(server, headers, sourceId, [
      { name: 'big.txt', data: Buffer.alloc(50 * 1024 * 1024 + 1, 0x61) },
    ])
    expect(response.statusCode).toBe(413)
    expect(response.json().error.code).toBe('FILE_TOO_LARGE')
    expect(await storedCount(sql`SELECT count(*) AS n FROM knowledge_document`)).toBe(0)
  })

  it('deletes a document with its chunks, index entries and blob', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, headers)
    const doc = (
      await upload(server, headers, sourceId, [{ name: 'a.txt', data: Buffer.from('Alpha beta gamma.') }])
    ).json()
    await ingest(server, headers, sourceId)
    expect(
      await storedCount(sql`SELECT count(*) AS n FROM knowledge_chunk WHERE document_id = ${doc.id}`),
    ).toBe(1)
    const deleted = await server.app.inject({
      method: 'DELETE',
      url: `/knowledge-sources/${sourceId}/documents/${doc.id}`,
      headers,
    })
    expect(deleted.statusCode).toBe(204)
    expect(await chunkCount()).toBe(0)
    expect(await indexedWith('alpha')).toBe(0)
    expect(await storedVectors()).toBe(0)
    expect(server.app.ctx.blobs.has(doc.sha256)).toBe(false)
    const again = await server.app.inject({
      method: 'GET',
      url: `/knowledge-sources/${sourceId}/documents/${doc.id}`,
      headers,
    })
    expect(again.statusCode).toBe(404)
  })
})

describe('ingestion', () => {
  it('indexes documents of every kind with page numbers for the PDF, and reports progress', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, headers)
    await upload(server, headers, sourceId, await everyKind())
    const job = await ingest(server, headers, sourceId)
    expect(job).toMatchObject({
      source_id: sourceId,
      status: 'succeeded',
      status_message: expect.stringContaining('Indexed 6 of 6 documents'),
      progress: { documents_total: 6, documents_done: 6 },
      chunking_strategy: 'recursive',
    })
    const statuses = await server.rows<{
      file_name: string
      status: string
      page_count: number | string | null
      chunk_count: number | string
    }>(sql`SELECT file_name, status, page_count, chunk_count FROM knowledge_document ORDER BY created_at`)
    expect(statuses.every((row) => row.status === 'indexed' && Number(row.chunk_count) > 0)).toBe(true)
    // Integer columns: numbers on SQLite, bigint text on PostgreSQL.
    expect(Number(statuses.find((row) => row.file_name === 'manual.pdf')?.page_count)).toBe(3)
    const chunks = await chunkCount()
    expect(job.progress.chunks_written).toBe(chunks)
    expect(await storedVectors()).toBe(chunks)
    const pdfPages = await server.rows<{ page_number: number | string; content: string }>(
      sql`SELECT c.page_number, c.content FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id
          WHERE d.file_name = 'manual.pdf' ORDER BY c.ordinal`,
    )
    expect(pdfPages.map((row) => Number(row.page_number))).toEqual([1, 2, 3])
    expect(pdfPages[1]?.content).toContain('turbine inspection')
    const [html] = await server.rows<{ content: string }>(
      sql`SELECT c.content FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id
          WHERE d.file_name = 'page.html'`,
    )
    expect(html?.content).toContain('Magma & basalt')
    expect(html?.content).not.toContain('alert')

    const found = await server.app.inject({
      method: 'POST',
      url: '/retrieval/query',
      headers,
      payload: { query: 'turbine inspection checklist', source_ids: [sourceId] },
    })
    expect(found.statusCode).toBe(200)
    expect(found.json().items[0]).toMatchObject({ document_name: 'manual.pdf', page_number: 2 })
  })

  it.each(CHUNKING_STRATEGIES)(
    're-indexes with the %s strategy, replacing chunks without duplicates',
    async (strategy) => {
      server = await startTestServer()
      const headers = await server.headersFor('olga', ['operator'])
      const sourceId = await createSource(server, headers)
      await upload(server, headers, sourceId, await everyKind())
      await ingest(server, headers, sourceId)
      const job = await ingest(server, headers, sourceId, { chunking_strategy: strategy })
      expect(job).toMatchObject({ status: 'succeeded', chunking_strategy: strategy })
      const chunks = await chunkCount()
      expect(chunks).toBe(job.progress.chunks_written)
      expect(
        await storedCount(
          sql`SELECT count(*) AS n FROM (SELECT DISTINCT document_id, ordinal FROM knowledge_chunk) d`,
        ),
      ).toBe(chunks)
      expect(await storedVectors()).toBe(chunks)
      expect(await indexedWith('saffron')).toBe(1)
    },
  )

  it('returns the running job (200) for a second request and refuses invalid params with 422', async () => {
    server = await startTestServer({ runJobs: false })
    const headers = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, headers)
    const url = `/knowledge-sources/${sourceId}/ingest`
    // No body at all means the source's defaults.
    const first = await server.app.inject({ method: 'POST', url, headers })
    expect(first.statusCode).toBe(202)
    expect(first.json()).toMatchObject({ status: 'queued', progress: { documents_total: 0 } })
    const second = await server.app.inject({
      method: 'POST',
      url,
      headers,
      payload: { chunking_strategy: 'sentence' },
    })
    expect(second.statusCode).toBe(200)
    expect(second.json().id).toBe(first.json().id)
    const bad = await server.app.inject({
      method: 'POST',
      url,
      headers,
      payload: { chunking_strategy: 'fixed_size', chunking_params: { chunk_size: 10, chunk_overlap: 10 } },
    })
    expect(bad.statusCode).toBe(422)
    expect(await storedCount(sql`SELECT count(*) AS n FROM ingestion_job`)).toBe(1)
    const list = await server.app.inject({
      method: 'GET',
      url: `/knowledge-sources/${sourceId}/ingestion-jobs`,
      headers,
    })
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: first.json().id }] })
  })

  it('fails bad files cleanly with a message while the rest of the source is indexed', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, headers)
    const pdf = await makePdf(['Some page text.', 'More page text.'])
    const response = await upload(server, headers, sourceId, [
      { name: 'truncated.pdf', data: pdf.subarray(0, Math.floor(pdf.length / 2)) },
      { name: 'locked.pdf', data: await makeEncryptedPdf() },
      { name: 'blank.txt', data: Buffer.from('   \n\n  ') },
      { name: 'good.txt', data: Buffer.from('A healthy document about orchards.') },
    ])
    expect(response.statusCode).toBe(201)
    const job = await ingest(server, headers, sourceId)
    expect(job.status).toBe('succeeded')
    expect(job.status_message).toContain('(3 failed)')
    const rows = await server.rows<{ file_name: string; status: string; error_message: string | null }>(
      sql`SELECT file_name, status, error_message FROM knowledge_document ORDER BY file_name`,
    )
    const byName = Object.fromEntries(rows.map((row) => [row.file_name, row]))
    expect(byName['good.txt']).toMatchObject({ status: 'indexed', error_message: null })
    expect(byName['locked.pdf']).toMatchObject({
      status: 'failed',
      error_message: 'The PDF is password-protected.',
    })
    expect(byName['blank.txt']).toMatchObject({
      status: 'failed',
      error_message: 'The document contains no text.',
    })
    expect(byName['truncated.pdf']?.status).toBe('failed')
    expect(byName['truncated.pdf']?.error_message).toBeTruthy()
  })
})
