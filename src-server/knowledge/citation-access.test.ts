import { sql } from 'drizzle-orm'
import { PDFDocument } from 'pdf-lib'
import { afterEach, describe, expect, it } from 'vitest'
import { type SseEvent, stream } from '../../test/helpers/conversation'
import { createSource, ingest, makePdf, upload } from '../../test/helpers/knowledge-files'
import { createListing, publish, purchase, refund } from '../../test/helpers/marketplace'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

/** Eight pages on eight topics: an answer cites a few of them (the best five chunks), never all. */
const PAGES = [
  'The harbour opens at nine in the morning and closes at six.',
  'Ferries to the island leave every hour from pier four.',
  'Parking near the harbour costs two euros per hour.',
  'The lighthouse museum shows ship models from the last century.',
  'Fishing licences are sold at the tourist office on the square.',
  'The old fort was built by the navy to guard the bay.',
  'Swimming is allowed only at the sandy beach north of town.',
  'The market sells smoked fish, bread and cheese on Saturdays.',
]

type Citation = { source_id: string; document_id: string; chunk_id: string; page_number: number | null }

async function get(base: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${base}${path}`, { headers })
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: await response.arrayBuffer(),
  }
}

/** A server with Alice's agent answering from her ingested PDF guide. */
async function aliceAgentOnHerGuide(agentName: string) {
  server = await startTestServer()
  const base = await server.listen()
  const alice = await server.headersFor('alice')
  const agentId = (
    await server.app.inject({ method: 'POST', url: '/agents', headers: alice, payload: { name: agentName } })
  ).json().id as string
  const sourceId = await createSource(server, alice, { name: 'Harbour guide' })
  const uploaded = await upload(server, alice, sourceId, [{ name: 'guide.pdf', data: await makePdf(PAGES) }])
  const documentId = uploaded.json().id as string
  expect((await ingest(server, alice, sourceId, { agent_id: agentId })).status).toBe('succeeded')
  return { base, alice, agentId, sourceId, documentId }
}

/**
 * Alice sells an agent that draws on her harbour guide (a PDF); Bob buys it and asks it something over real HTTP,
 * so the citations are the ones a real answer stored.
 */
async function boughtAgentCitingAliceGuide() {
  const { base, alice, agentId, sourceId, documentId } = await aliceAgentOnHerGuide('Harbour guide')
  const bob = await server.headersFor('bob')
  const listingId = await createListing(server, 'alice', { asset_id: agentId })
  await publish(server, listingId)
  const orderId = await purchase(server, 'bob', listingId)

  const answer = await stream(base, bob, {
    agent_id: agentId,
    message: 'How often do ferries to the island leave?',
  })
  const done = answer.events.find((event: SseEvent) => event.type === 'done') as unknown as {
    citations: Citation[]
  }
  const cited = done.citations.filter((citation) => citation.document_id === documentId)
  expect(cited.length).toBeGreaterThan(0)
  // The stored answer is what grants: the citations as the database holds them.
  expect(
    (
      await server.rows<{ n: number | string }>(
        sql`SELECT count(*) AS n FROM chat_message m JOIN chat_session s ON s.id = m.session_id
          WHERE s.agent_id = ${agentId} AND CAST(m.citations_json AS TEXT) LIKE '%' || ${cited[0]?.chunk_id} || '%'`,
      )
    ).map((row) => Number(row.n)),
  ).toEqual([1])
  const chunks = await server.rows<{ id: string; page_number: number; content: string }>(
    sql`SELECT id, page_number, content FROM knowledge_chunk WHERE document_id = ${documentId}`,
  )
  const uncited = chunks.find((chunk) => !cited.some((citation) => citation.chunk_id === chunk.id))
  if (!uncited) throw new Error('every chunk was cited: the test needs one that was not')
  const doc = `/knowledge-sources/${sourceId}/documents/${documentId}`
  return { base, alice, bob, agentId, orderId, doc, cited, chunks, uncited }
}

describe('what a citation grants', () => {
  it('gives the buyer the cited passage and its PDF page, never the whole file; his refund ends both', async () => {
    const { base, alice, bob, agentId, orderId, doc, cited, chunks, uncited } =
      await boughtAgentCitingAliceGuide()
    const [first] = cited as [Citation]

    // The whole document is the source's: its owner opens it, the buyer who was cited a passage does not.
    expect((await get(base, `${doc}/file`, alice)).status).toBe(200)
    expect((await get(base, `${doc}/file`, bob)).status).toBe(404)

    const passage = await get(base, `${doc}/passages/${first.chunk_id}`, bob)
    expect(passage.status).toBe(200)
    expect(JSON.parse(Buffer.from(passage.bytes).toString('utf8'))).toMatchObject({
      chunk_id: first.chunk_id,
      page_number: first.page_number,
      document_name: 'guide.pdf',
      content: chunks.find((chunk) => chunk.id === first.chunk_id)?.content,
    })
    expect((await get(base, `${doc}/passages/${uncited.id}`, bob)).status).toBe(404)

    const page = await get(base, `${doc}/pages/${first.page_number}`, bob)
    expect(page.status).toBe(200)
    expect(page.type).toBe('application/pdf')
    expect((await PDFDocument.load(page.bytes)).getPageCount()).toBe(1)
    expect((await get(base, `${doc}/pages/${uncited.page_number}`, bob)).status).toBe(404)
    // The owner reads any page; a page the document does not have is 404 in the envelope.
    expect((await get(base, `${doc}/pages/${uncited.page_number}`, alice)).status).toBe(200)
    expect((await get(base, `${doc}/pages/99`, alice)).status).toBe(404)
    for (const bad of ['0', 'two', '1.5']) {
      const refused = await get(base, `${doc}/pages/${bad}`, alice)
      expect([400, 422]).toContain(refused.status)
    }

    await refund(server, 'bob', orderId)
    expect(
      await server.rows(
        sql`SELECT revoked_at FROM asset_grant WHERE order_id = ${orderId} AND revoked_at IS NULL`,
      ),
    ).toEqual([])
    expect((await get(base, `${doc}/passages/${first.chunk_id}`, bob)).status).toBe(404)
    expect((await get(base, `${doc}/pages/${first.page_number}`, bob)).status).toBe(404)
    expect((await get(base, `/agents/${agentId}`, bob)).status).toBe(404)
    // Alice's own access is hers, whatever Bob does.
    expect((await get(base, `${doc}/passages/${first.chunk_id}`, alice)).status).toBe(200)
  })

  it('gives the user of a help desk agent the passages cited to them; the operator reads them; no one else does', async () => {
    const { base, alice, agentId, sourceId, documentId } = await aliceAgentOnHerGuide('Help desk')
    const uma = await server.headersFor('uma')
    const vic = await server.headersFor('vic')
    const olga = await server.headersFor('olga', ['operator'])
    const doc = `/knowledge-sources/${sourceId}/documents/${documentId}`
    const audience = async (to: 'users' | 'owner') =>
      (
        await server.app.inject({
          method: 'PATCH',
          url: `/agents/${agentId}`,
          headers: alice,
          payload: { audience: to },
        })
      ).statusCode
    expect(await audience('users')).toBe(200)

    // Uma reaches the agent through its audience (no purchase) and is answered from Alice's guide.
    const answer = await stream(base, uma, {
      agent_id: agentId,
      message: 'How often do ferries to the island leave?',
    })
    const done = answer.events.find((event: SseEvent) => event.type === 'done') as unknown as {
      session_id: string
      citations: Citation[]
    }
    const [first] = done.citations as [Citation]
    expect(first.source_id).toBe(sourceId)
    const passage = `${doc}/passages/${first.chunk_id}`
    const page = `${doc}/pages/${first.page_number}`
    expect((await get(base, passage, uma)).status).toBe(200)
    expect((await get(base, page, uma)).status).toBe(200)
    expect((await get(base, `${doc}/file`, uma)).status).toBe(404)

    // The operator who takes the conversation over opens what it cites.
    const takeover = await server.app.inject({
      method: 'POST',
      url: `/sessions/${done.session_id}/takeover`,
      headers: olga,
    })
    expect(takeover.statusCode, takeover.body).toBe(200)
    expect((await get(base, passage, olga)).status).toBe(200)
    expect((await get(base, page, olga)).status).toBe(200)

    // Vic may talk to the same agent, but nothing was cited to him: Uma's links open nothing for him.
    expect((await get(base, passage, vic)).status).toBe(404)
    expect((await get(base, page, vic)).status).toBe(404)

    // The agent closed to its owner again: what it cited to Uma closes with it.
    expect(await audience('owner')).toBe(200)
    expect((await get(base, passage, uma)).status).toBe(404)
    expect((await get(base, page, uma)).status).toBe(404)
    expect((await get(base, passage, olga)).status).toBe(200)
  })

  it('gives a buyer of a source the whole source; the refund ends it, its citations and the answers it fed', async () => {
    server = await startTestServer()
    const base = await server.listen()
    const alice = await server.headersFor('alice')
    const carol = await server.headersFor('carol')
    const sourceId = await createSource(server, alice, { name: 'Harbour guide' })
    const uploaded = await upload(server, alice, sourceId, [
      { name: 'guide.pdf', data: await makePdf(PAGES) },
    ])
    const doc = `/knowledge-sources/${sourceId}/documents/${uploaded.json().id}`
    expect((await ingest(server, alice, sourceId)).status).toBe('succeeded')
    const listingId = await createListing(server, 'alice', {
      asset_type: 'knowledge_source',
      asset_id: sourceId,
    })
    await publish(server, listingId)
    const orderId = await purchase(server, 'carol', listingId)

    // Carol mounts what she bought on an agent of her own and asks it.
    const agentId = (
      await server.app.inject({ method: 'POST', url: '/agents', headers: carol, payload: { name: 'Mine' } })
    ).json().id as string
    const mounted = await server.app.inject({
      method: 'POST',
      url: `/agents/${agentId}/mounts`,
      headers: carol,
      payload: { source_id: sourceId },
    })
    expect(mounted.statusCode, mounted.body).toBe(201)
    const ask = async () => {
      const answer = await stream(base, carol, {
        agent_id: agentId,
        message: 'How often do ferries leave?',
      })
      return (
        answer.events.find((event: SseEvent) => event.type === 'done') as unknown as {
          citations: Citation[]
        }
      ).citations
    }
    const [first] = (await ask()) as [Citation]
    expect(first.source_id).toBe(sourceId)
    expect((await get(base, `${doc}/file`, carol)).status).toBe(200)
    expect((await get(base, `${doc}/passages/${first.chunk_id}`, carol)).status).toBe(200)

    await refund(server, 'carol', orderId)
    expect((await get(base, `${doc}/file`, carol)).status).toBe(404)
    expect((await get(base, `${doc}/passages/${first.chunk_id}`, carol)).status).toBe(404)
    expect((await get(base, `${doc}/pages/${first.page_number}`, carol)).status).toBe(404)
    // Her agent still lists the mount (it is hers), but answers from the refunded source no more.
    expect(await server.rows(sql`SELECT source_id FROM knowledge_mount WHERE agent_id = ${agentId}`)).toEqual(
      [{ source_id: sourceId }],
    )
    expect(await ask()).toEqual([])
  })
})
