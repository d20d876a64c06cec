import { describe, expect, it, onTestFinished } from 'vitest'
import {
  fieldReview,
  injectAs,
  settledUpload,
  startWithInvoiceReviewer,
} from '../../test/helpers/document-recognition/api'
import { invoicePdf, SAMPLE_INVOICE } from '../../test/helpers/document-recognition/invoice-documents'

interface ListedRun {
  runtime_agent_id: string
  status: string
  review_status: string
  created_at: string
  completed_at: string | null
  field_reviews: { field_key: string; value: unknown; confidence: number; review_status: string }[]
}

const round = (n: number) => Math.round(n * 1000) / 1000
const countBy = (values: string[]) => {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return counts
}

/** The overview as worked out from the runs the review queue lists: another path to the same figures. */
function expectedOverview(runs: ListedRun[]) {
  const completed = runs.filter((run) => run.status === 'completed')
  const fields = completed.flatMap((run) => run.field_reviews)
  const withValue = fields.filter((field) => field.value !== null)
  const durations = completed
    .map((run) => Date.parse(run.completed_at as string) - Date.parse(run.created_at))
    .sort((a, b) => a - b)
  return {
    total_runs: runs.length,
    by_status: countBy(runs.map((run) => run.status)),
    by_review_status: countBy(runs.map((run) => run.review_status)),
    flagged_rate: round(completed.filter((run) => run.review_status === 'flagged').length / completed.length),
    correction_rate_by_field: Object.fromEntries(
      [...new Set(fields.map((field) => field.field_key))].map((key) => {
        const ofKey = fields.filter((field) => field.field_key === key)
        return [
          key,
          round(ofKey.filter((field) => field.review_status === 'corrected').length / ofKey.length),
        ]
      }),
    ),
    // (in whole thousandths, as the confidences are stored)
    mean_confidence:
      Math.round(
        withValue.reduce((sum, field) => sum + Math.round(field.confidence * 1000), 0) / withValue.length,
      ) / 1000,
    median_processing_ms: durations[Math.floor((durations.length - 1) / 2)],
  }
}

describe('the document recognition overview', () => {
  it('adds up the runs, reviews and fields the review queue lists', async () => {
    const { server, invoiceAgent, reviewer } = await startWithInvoiceReviewer()
    onTestFinished(() => server.close())
    const upload = async (invoiceNumber: string) => {
      const lines = SAMPLE_INVOICE.map((line) =>
        line.text.startsWith('Invoice No') ? { ...line, text: `Invoice No: ${invoiceNumber}` } : line,
      )
      return settledUpload(server, reviewer, invoiceAgent, {
        name: `${invoiceNumber}.pdf`,
        type: 'application/pdf',
        bytes: await invoicePdf(lines),
      })
    }
    const [rejected, corrected] = [await upload('INV-1'), await upload('INV-2'), await upload('INV-3')]
    const reject = await injectAs(
      server,
      reviewer,
      'POST',
      `/document-recognition/runs/${rejected.id}/reject`,
      {
        reason: 'not ours',
      },
    )
    expect(reject.statusCode).toBe(200)
    const number = fieldReview<{ id: string; field_key: string }>(corrected, 'invoice_number')
    const correction = await injectAs(
      server,
      reviewer,
      'PATCH',
      `/document-recognition/runs/${corrected.id}/field-reviews/${number.id}`,
      { value: 'INV-2B' },
    )
    expect(correction.statusCode).toBe(200)

    const listed = await injectAs(server, reviewer, 'GET', '/document-recognition/runs?size=100')
    const runs = listed.json().items as ListedRun[]
    expect(runs).toHaveLength(3)
    const overview = await server.app.inject({
      method: 'GET',
      url: '/admin/document-recognition/overview',
      headers: await server.adminHeaders(),
    })
    expect(overview.statusCode, overview.body).toBe(200)
    const expected = expectedOverview(runs)
    expect(overview.json()).toMatchObject(expected)
    expect(expected.by_review_status).toMatchObject({ rejected: 1 })
    expect(expected.correction_rate_by_field).toMatchObject({ invoice_number: round(1 / 3) })
    expect(overview.json().per_runtime_agent).toContainEqual(
      expect.objectContaining({
        runtime_agent_id: invoiceAgent,
        runs: 3,
        flagged: runs.filter((run) => run.review_status === 'flagged').length,
      }),
    )
    const today = new Date().toISOString().slice(0, 10)
    expect(overview.json().runs_per_day).toHaveLength(30)
    expect(overview.json().runs_per_day.at(-1)).toEqual({ date: today, runs: 3 })
    expect(
      overview
        .json()
        .runs_per_day.slice(0, -1)
        .every((day: { runs: number }) => day.runs === 0),
    ).toBe(true)
  })
})
