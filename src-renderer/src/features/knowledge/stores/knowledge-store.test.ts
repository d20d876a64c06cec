import { describe, expect, it, vi } from 'vitest'

vi.stubGlobal('window', { location: { origin: 'http://console.test' } })
vi.stubGlobal('localStorage', { getItem: () => null, setItem() {}, removeItem() {} })

/** The server as a buyer of the agent sees it: the whole file is not theirs, the cited page and passage are. */
const DOC = '/knowledge-sources/s1/documents/d1'
let readerOfSource = false
const requested: string[] = []
vi.stubGlobal('fetch', async (input: URL) => {
  const path = new URL(input).pathname
  requested.push(path)
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  if (path === `${DOC}/file`)
    return readerOfSource
      ? new Response('%PDF-1.7 whole', { headers: { 'content-type': 'application/pdf' } })
      : json(404, { error: { code: 'KNOWLEDGE_SOURCE_NOT_FOUND', message: 'Knowledge source not found.' } })
  if (path === `${DOC}/pages/2`)
    return new Response('%PDF-1.7 page two', { headers: { 'content-type': 'application/pdf' } })
  if (path === `${DOC}/passages/c1`)
    return json(200, {
      chunk_id: 'c1',
      document_name: 'guide.pdf',
      page_number: null,
      content: 'Ferries leave hourly.',
    })
  return json(404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
})

const { useKnowledge } = await import('./knowledge-store')

const open = async (cited: { chunkId?: string; page?: number }) => {
  requested.length = 0
  await useKnowledge.getState().openCitedDocument('s1', 'd1', cited)
  return useKnowledge.getState().citedDocument
}

describe('opening a cited document', () => {
  it('shows a reader of the source the whole document', async () => {
    readerOfSource = true
    expect(await open({ chunkId: 'c1', page: 2 })).toMatchObject({ part: 'whole', file: { kind: 'pdf' } })
    expect(requested).toEqual([`${DOC}/file`])
  })

  it('shows anyone else what the citation grants: the cited PDF page, or else the passage', async () => {
    readerOfSource = false
    expect(await open({ chunkId: 'c1', page: 2 })).toMatchObject({ part: 'page', file: { kind: 'pdf' } })
    expect(requested).toEqual([`${DOC}/file`, `${DOC}/pages/2`])
    expect(await open({ chunkId: 'c1' })).toMatchObject({
      part: 'passage',
      title: 'guide.pdf',
      file: { kind: 'text', text: 'Ferries leave hourly.' },
    })
  })
})
