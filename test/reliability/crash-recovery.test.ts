import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { afterEach, describe, expect, it } from 'vitest'
import { scannedPdf } from '../helpers/document-recognition/torture-set'
import {
  client,
  PROCESS_ADMIN_PASSWORD,
  type ServerProcess,
  startServerProcess,
  until,
} from '../helpers/server-process'

/**
 * The server is killed with SIGKILL in the middle of each kind of durable work, then started again on the same
 * data directory: the work resumes and finishes once, and the database stays whole.
 */
let dataDir: string
let running: ServerProcess | null = null
afterEach(async () => {
  await running?.stop()
  running = null
  rmSync(dataDir, { recursive: true, force: true })
})

const start = async () => {
  running = await startServerProcess(dataDir)
  return running
}
const crash = async () => {
  await running?.kill()
  running = null
}

function inspect<T>(query: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, 'switchboard.db'), { readonly: true })
  try {
    return query(db)
  } finally {
    db.close()
  }
}

const integrity = () => inspect((db) => db.pragma('integrity_check', { simple: true }))

describe('crash recovery (SIGKILL mid-work)', () => {
  it('resumes an interrupted ingestion without duplicate chunks', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-crash-ingest-'))
    let server = await start()
    const admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const source = (
      await admin.call('POST', '/knowledge-sources', {
        name: 'Long reports',
        default_chunking_strategy: 'fixed_size',
        default_chunking_params: { chunk_size: 300, chunk_overlap: 50 },
      })
    ).body
    const paragraph = (n: number, d: number) =>
      `Report ${d}, section ${n}: the harbour authority recorded ${n * 7} vessels and ${n * 3} inspections in quarter ${n % 4}. `
    for (let d = 0; d < 24; d++) {
      const form = new FormData()
      form.append(
        'file',
        new Blob([Array.from({ length: 400 }, (_, n) => paragraph(n, d)).join('\n\n')]),
        `report-${d}.txt`,
      )
      expect(
        (await admin.call('POST', `/knowledge-sources/${source.id}/documents`, form)).status,
      ).toBeLessThan(300)
    }
    const job = (await admin.call('POST', `/knowledge-sources/${source.id}/ingest`, {})).body
    const atKill = await until(
      () => admin.call('GET', `/ingestion-jobs/${job.id}`).then((r) => r.body),
      (j) => j.progress.documents_done >= 1 || j.status === 'succeeded',
      60_000,
      10,
    )
    await crash()
    expect(atKill.status, 'the crash must land mid-ingestion').toBe('running')
    expect(atKill.progress.documents_done).toBeLessThan(24)

    server = await start()
    const after = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const finished = await until(
      () => after.call('GET', `/ingestion-jobs/${job.id}`).then((r) => r.body),
      (j) => j.status === 'succeeded' || j.status === 'failed',
      120_000,
      200,
    )
    expect(finished.status).toBe('succeeded')
    expect(finished.progress.documents_done).toBe(24)
    const counts = inspect((db) =>
      db
        .prepare(
          "SELECT count(*) AS chunks, count(DISTINCT document_id || ':' || ordinal) AS distinct_chunks, count(DISTINCT document_id) AS documents FROM knowledge_chunk",
        )
        .get(),
    ) as { chunks: number; distinct_chunks: number; documents: number }
    expect(counts.documents).toBe(24)
    expect(counts.chunks).toBe(counts.distinct_chunks)
    expect(integrity()).toBe('ok')
  }, 240_000)

  it('keeps the ledger exact after a burst of purchases is cut off', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-crash-market-'))
    const server = await start()
    const admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    for (const name of ['seller', ...Array.from({ length: 10 }, (_, i) => `buyer${i}`)])
      expect(
        (
          await admin.call('POST', '/api/admin/users', {
            username: name,
            password: `${name}-password`,
            roles: ['user'],
          })
        ).status,
      ).toBe(201)
    const seller = await client(server.url, 'seller', 'seller-password')
    const listings: string[] = []
    for (let i = 0; i < 5; i++) {
      const agent = (await seller.call('POST', '/agents', { name: `Agent ${i}` })).body
      const listing = (
        await seller.call('POST', '/api/marketplace/listings', {
          asset_type: 'agent',
          asset_id: agent.id,
          title: `Agent ${i}`,
          pricing_model: 'one_time',
          base_price: 10,
        })
      ).body
      expect(
        (await admin.call('PUT', `/api/admin/listings/${listing.id}/status`, { status: 'published' })).status,
      ).toBe(200)
      listings.push(listing.id)
    }
    const buyers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client(server.url, `buyer${i}`, `buyer${i}-password`)),
    )
    for (const buyer of buyers)
      expect(
        (await buyer.call('POST', '/api/wallet/topup', { amount: 30, payment_method: 'simulated' })).status,
      ).toBeLessThan(300)

    // Fifty purchases at once from buyers who can afford three each; the server dies while they are in flight.
    const burst = buyers.flatMap((buyer) =>
      listings.map((id) =>
        buyer.call('POST', '/api/marketplace/orders', { listing_id: id }).catch(() => null),
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 40))
    await crash()
    await Promise.all(burst)

    const ledger = inspect((db) => ({
      held: (
        db.prepare('SELECT coalesce(sum(balance + frozen_balance), 0) AS n FROM wallet').get() as {
          n: number
        }
      ).n,
      inflow: (
        db
          .prepare(
            "SELECT coalesce(sum(amount), 0) AS n FROM wallet_transaction WHERE type IN ('topup', 'withdraw')",
          )
          .get() as { n: number }
      ).n,
      negative: (
        db.prepare('SELECT count(*) AS n FROM wallet WHERE balance < 0 OR frozen_balance < 0').get() as {
          n: number
        }
      ).n,
      mismatched: (
        db
          .prepare(
            `SELECT count(*) AS n FROM wallet w WHERE w.balance + w.frozen_balance !=
               (SELECT coalesce(sum(t.amount), 0) FROM wallet_transaction t WHERE t.wallet_id = w.id)`,
          )
          .get() as { n: number }
      ).n,
      pending: (
        db.prepare("SELECT count(*) AS n FROM marketplace_order WHERE status = 'pending'").get() as {
          n: number
        }
      ).n,
      paidWithoutGrant: (
        db
          .prepare(
            "SELECT count(*) AS n FROM marketplace_order o WHERE o.status = 'paid' AND NOT EXISTS (SELECT 1 FROM asset_grant g WHERE g.order_id = o.id)",
          )
          .get() as { n: number }
      ).n,
      overspent: (
        db
          .prepare(
            "SELECT count(*) AS n FROM (SELECT buyer_id FROM marketplace_order WHERE status = 'paid' GROUP BY buyer_id HAVING count(*) > 3)",
          )
          .get() as { n: number }
      ).n,
    }))
    expect(ledger.held).toBe(ledger.inflow)
    expect(ledger).toMatchObject({
      negative: 0,
      mismatched: 0,
      pending: 0,
      paidWithoutGrant: 0,
      overspent: 0,
    })
    expect(integrity()).toBe('ok')
  }, 240_000)

  it('finishes a recognition run interrupted right after upload, exactly once', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-crash-recognition-'))
    let server = await start()
    const admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const agents = (await admin.call('GET', '/document-recognition/runtime-agents')).body.items as {
      runtime_agent_id: string
      display_name: string
    }[]
    const receipt = agents.find((agent) => agent.display_name === 'Receipt extractor')
    expect(receipt).toBeDefined()
    const pdf = await PDFDocument.create()
    const font = await pdf.embedFont(StandardFonts.Helvetica)
    const page = pdf.addPage([595, 842])
    for (const [i, text] of ['Receipt No: R-7', 'Date: 2026-03-04', 'Total: 9.99'].entries())
      page.drawText(text, { x: 60, y: 760 - i * 30, size: 14, font })
    const form = new FormData()
    form.append('runtime_agent_id', receipt?.runtime_agent_id ?? '')
    form.append('file', new Blob([await pdf.save()], { type: 'application/pdf' }), 'receipt.pdf')
    const run = (await admin.call('POST', '/document-recognition/runs', form)).body
    expect(run.status).toBe('queued')
    await crash()

    server = await start()
    const after = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const done = await until(
      () => after.call('GET', `/document-recognition/runs/${run.id}`).then((r) => r.body),
      (r) => r.status === 'completed' || r.status === 'failed',
      120_000,
      200,
    )
    expect(done.status).toBe('completed')
    expect(
      done.field_reviews.find((f: { field_key: string }) => f.field_key === 'total_amount')?.value,
    ).toBeTruthy()
    const fields = inspect((db) =>
      db
        .prepare(
          'SELECT count(*) AS n, count(DISTINCT field_key) AS keys FROM document_field_review WHERE run_id = ?',
        )
        .get(run.id),
    ) as { n: number; keys: number }
    expect(fields.n).toBe(fields.keys)
    expect(integrity()).toBe('ok')
  }, 240_000)

  it('[slow] fails a recognition run the server died under twice, naming the page, instead of resuming it again', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-crash-ocr-'))
    let server = await start()
    let admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const agents = (await admin.call('GET', '/document-recognition/runtime-agents')).body.items as {
      runtime_agent_id: string
      display_name: string
    }[]
    const form = new FormData()
    form.append(
      'runtime_agent_id',
      agents.find((a) => a.display_name === 'Invoice extractor')?.runtime_agent_id ?? '',
    )
    form.append('file', new Blob([await scannedPdf(8)], { type: 'application/pdf' }), 'scan.pdf')
    const run = (await admin.call('POST', '/document-recognition/runs', form)).body
    const jobOf = () =>
      inspect(
        (db) =>
          db
            .prepare(
              `SELECT status, attempts, crashes, json_extract(progress_json, '$.step') AS step
               FROM job WHERE json_extract(payload_json, '$.runId') = ?`,
            )
            .get(run.id) as { status: string; attempts: number; crashes: number; step: string | null },
      )
    // Killed twice while its pages are read, as a reader that takes the process down would do.
    for (const attempt of [1, 2]) {
      await until(
        async () => jobOf(),
        (job) => job.attempts === attempt && job.step === 'ocr',
        120_000,
        20,
      )
      await crash()
      server = await start()
      admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    }
    const failed = await until(
      () => admin.call('GET', `/document-recognition/runs/${run.id}`).then((r) => r.body),
      (r) => r.status === 'completed' || r.status === 'failed',
      60_000,
      100,
    )
    expect(failed.status).toBe('failed')
    expect(failed.error_message).toMatch(
      /^OCR_FAILED: the server stopped 2 times while this run was at page \d+ \(ocr\)/,
    )
    // Not read a third time: the run was started twice, and its job ended without a third reading.
    expect(failed.attempts).toBe(2)
    expect(jobOf()).toMatchObject({ status: 'failed', crashes: 2 })
    expect(server.child.exitCode).toBeNull()
    expect(integrity()).toBe('ok')
  }, 240_000)

  it('resumes an interrupted evaluation run without duplicate results', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-crash-evaluation-'))
    let server = await start()
    const admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const agent = (await admin.call('POST', '/agents', { name: 'Evaluated' })).body
    const dataset = (await admin.call('POST', '/evaluation-datasets', { name: 'Forty questions' })).body
    const csv = [
      'input,expected',
      ...Array.from({ length: 40 }, (_, i) => `"Question number ${i}?","Answer ${i}"`),
    ].join('\r\n')
    const form = new FormData()
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'questions.csv')
    expect((await admin.call('POST', `/evaluation-datasets/${dataset.id}/import`, form)).status).toBe(200)
    const run = (
      await admin.call('POST', `/agents/${agent.id}/evaluation-runs`, {
        dataset_id: dataset.id,
        concurrency: 1,
      })
    ).body
    const atKill = await until(
      () => admin.call('GET', `/agents/${agent.id}/evaluation-runs/${run.id}`).then((r) => r.body),
      (r) => r.progress.done >= 2 || r.status === 'succeeded',
      60_000,
      10,
    )
    await crash()
    expect(atKill.progress.done, 'the crash must land mid-run').toBeLessThan(40)

    server = await start()
    const after = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const done = await until(
      () => after.call('GET', `/agents/${agent.id}/evaluation-runs/${run.id}`).then((r) => r.body),
      (r) => ['succeeded', 'failed', 'cancelled'].includes(r.status),
      120_000,
      200,
    )
    expect(done.status).toBe('succeeded')
    const results = inspect((db) =>
      db
        .prepare(
          'SELECT count(*) AS n, count(DISTINCT sample_id) AS samples FROM evaluation_result WHERE run_id = ?',
        )
        .get(run.id),
    ) as { n: number; samples: number }
    expect(results).toEqual({ n: 40, samples: 40 })
    expect(integrity()).toBe('ok')
  }, 240_000)
})
