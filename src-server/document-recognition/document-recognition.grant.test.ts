import { readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

const receiptConfig = () =>
  JSON.parse(
    readFileSync(path.join(process.cwd(), 'resources/runtime-agents/receipt-extractor.json'), 'utf8'),
  ).config

describe('recognition through a marketplace grant', () => {
  // The document agent's grant is still read synchronously on SQLite, where the mixed test server has no orders.
  it('lets a buyer of a document agent run it and read their own runs, and nobody else', async () => {
    server = await startTestServer()
    const inject = server.app.inject.bind(server.app)
    const admin = await server.adminHeaders()

    // The admin builds, publishes, registers and sells a document agent.
    const agent = (
      await inject({
        method: 'POST',
        url: '/admin/runtime-agents',
        headers: admin,
        payload: { name: 'Partner receipts', type: 'document_extraction', config: receiptConfig() },
      })
    ).json()
    const version = agent.versions[0]
    expect(
      (
        await inject({
          method: 'POST',
          url: `/admin/runtime-agents/${agent.id}/versions/${version.id}/publish`,
          headers: admin,
        })
      ).statusCode,
    ).toBeLessThan(300)
    expect(
      (
        await inject({
          method: 'PUT',
          url: `/admin/document-recognition/runtime-agents/${agent.id}`,
          headers: admin,
          payload: { enabled: true },
        })
      ).statusCode,
    ).toBe(200)
    const listing = (
      await inject({
        method: 'POST',
        url: '/api/marketplace/listings',
        headers: admin,
        payload: {
          asset_type: 'document_agent',
          asset_id: agent.id,
          title: 'Partner receipts',
          pricing_model: 'one_time',
          base_price: 10,
        },
      })
    ).json()
    expect(
      (
        await inject({
          method: 'PUT',
          url: `/api/admin/listings/${listing.id}/status`,
          headers: admin,
          payload: { status: 'published' },
        })
      ).statusCode,
    ).toBe(200)

    // A plain user buys it.
    const gina = await server.headersFor('gina', ['user'])
    await inject({
      method: 'POST',
      url: '/api/wallet/topup',
      headers: gina,
      payload: { amount: 10, payment_method: 'simulated' },
    })
    expect(
      (
        await inject({
          method: 'POST',
          url: '/api/marketplace/orders',
          headers: gina,
          payload: { listing_id: listing.id },
        })
      ).statusCode,
    ).toBe(201)

    const pdf = await PDFDocument.create()
    pdf.addPage([400, 400]).drawText('Receipt No: R-88  Total: 12.00', {
      x: 40,
      y: 300,
      size: 12,
      font: await pdf.embedFont(StandardFonts.Helvetica),
    })
    const url = await server.listen()
    const form = new FormData()
    form.append('runtime_agent_id', agent.id)
    form.append('file', new Blob([await pdf.save()], { type: 'application/pdf' }), 'mine.pdf')
    const created = await fetch(`${url}/document-recognition/runs`, {
      method: 'POST',
      headers: gina,
      body: form,
    })
    expect(created.status).toBe(202)
    const run = (await created.json()) as { id: string }
    expect(await server.rows(sql`SELECT created_by_id FROM agent_run WHERE id = ${run.id}`)).toEqual([
      { created_by_id: (await inject({ method: 'GET', url: '/api/auth/me', headers: gina })).json().id },
    ])

    expect(
      (await inject({ method: 'GET', url: `/document-recognition/runs/${run.id}`, headers: gina }))
        .statusCode,
    ).toBe(200)
    expect(
      (
        await inject({
          method: 'GET',
          url: `/document-recognition/runs/${run.id}/source-document`,
          headers: gina,
        })
      ).statusCode,
    ).toBe(200)

    const hank = await server.headersFor('hank', ['user'])
    expect(
      (await inject({ method: 'GET', url: `/document-recognition/runs/${run.id}`, headers: hank }))
        .statusCode,
    ).toBe(404)
    expect(
      (
        await inject({
          method: 'GET',
          url: `/document-recognition/runs/${run.id}/source-document`,
          headers: hank,
        })
      ).statusCode,
    ).toBe(404)
    // Reviewing stays with reviewers.
    expect(
      (
        await inject({
          method: 'POST',
          url: `/document-recognition/runs/${run.id}/reject`,
          headers: gina,
          payload: { reason: 'x' },
        })
      ).statusCode,
    ).toBe(403)
  })
})
