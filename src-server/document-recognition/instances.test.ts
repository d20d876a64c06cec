/**
 * Two instances on one PostgreSQL database: a recognition run executed by A's job runner shows where it is to a
 * reviewer who reads it through B. On SQLite (one process owns its file) there is nothing to run.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { shippedAgentId, upload } from '../../test/helpers/document-recognition/api'
import { scannedPdf } from '../../test/helpers/document-recognition/torture-set'
import { TEST_ENGINE } from '../../test/helpers/engine'
import { closeInstances, startInstances } from '../../test/helpers/instances'
import type { TestServer } from '../../test/helpers/server'

afterEach(() => closeInstances())

interface RunView {
  id: string
  status: string
  error_message: string | null
  progress: { step: string; pages?: number; pages_read?: number } | null
}

async function runOn(server: TestServer, headers: Record<string, string>, runId: string): Promise<RunView> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/document-recognition/runs/${runId}`,
    headers,
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

describe.skipIf(TEST_ENGINE !== 'postgres')(
  'recognition runs on two instances on one PostgreSQL database',
  () => {
    it("shows through B the step and pages of a run A's job runner is reading", async () => {
      // B takes the upload and runs no jobs: A's runner executes the run.
      const {
        servers: [b, a],
      } = await startInstances({ runJobs: false }, {})
      const onB = b as TestServer
      const onA = a as TestServer
      const reviewer = await onB.headersFor('rita', ['reviewer'])
      const created = await upload(onB, reviewer, await shippedAgentId(onB, 'Invoice extractor'), {
        name: 'scan-3-pages.pdf',
        type: 'application/pdf',
        bytes: await scannedPdf(3),
      })
      expect(created.statusCode, created.body).toBe(202)
      const runId = created.json().id as string

      // Read through both while it runs: whenever B finds it running, it says where the run is.
      const seenOnA: string[] = []
      const seenOnB: string[] = []
      for (;;) {
        const [onAView, onBView] = [await runOn(onA, reviewer, runId), await runOn(onB, reviewer, runId)]
        if (onAView.progress) seenOnA.push(onAView.progress.step)
        if (onBView.progress) seenOnB.push(onBView.progress.step)
        if (onBView.status === 'completed' || onBView.status === 'failed') {
          expect(onBView.status, onBView.error_message ?? '').toBe('completed')
          expect(onBView.progress).toBeNull()
          break
        }
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(seenOnA.length).toBeGreaterThan(0)
      expect(seenOnB).toContain('ocr')
    }, 300_000)
  },
)
