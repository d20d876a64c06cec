import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Test files that read with OCR engines or load models, or start server processes and load phases: `npm run
 * test:slow` runs them alone, `npm run test:quick` everything else. A file belongs here when one of its tests
 * needs tesseract, PaddleOCR or USE-lite, trains a model, starts a PostgreSQL cluster, or the reliability suite's
 * processes and load.
 */
export const slowTests = [
  'src-server/ai/embeddings/use-lite.test.ts',
  'src-server/knowledge/embedding.test.ts',
  'src-server/document-recognition/pipeline/ocr.test.ts',
  'src-server/document-recognition/pipeline/paddle-ocr.test.ts',
  'src-server/document-recognition/document-recognition.api.test.ts',
  'src-server/document-recognition/document-recognition.extraction.test.ts',
  'src-server/document-recognition/document-recognition.page-review.test.ts',
  'src-server/document-recognition/document-recognition.region-read.test.ts',
  'src-server/document-recognition/document-recognition.second-reading.test.ts',
  'src-server/document-recognition/pipeline/ocr-language.test.ts',
  'src-server/document-recognition/pipeline/deskew.test.ts',
  'test/document-recognition/invoice-ranker-training.test.ts',
  'src-server/platform/db/postgres/postgres.test.ts',
  'test/helpers/postgres.test.ts',
  'src-server/database-engine.test.ts',
  'src-server/platform/db/engine.test.ts',
  'src-server/platform/jobs/job-runner.postgres.test.ts',
  'src-server/knowledge/search-engines.test.ts',
  'test/reliability/**/*.test.ts',
]

const serverTests = ['src-server/**/*.test.ts', 'src-main/**/*.test.ts', 'test/**/*.test.ts']

/**
 * Tests of several server instances on one PostgreSQL database, as a team server runs them (a message through one
 * reaching a socket on another, money moved through both, a job run by one watched through another). They mean
 * nothing on SQLite, so the `instances` project runs them once, on PostgreSQL: `npm test` runs it, on one throwaway
 * cluster for the run (`test/helpers/postgres-setup.ts`); where PostgreSQL is missing, each of their tests is
 * skipped with the reason.
 */
const instanceTests = ['src-server/*/instances.test.ts', 'src-server/marketplace/two-instances.test.ts']

/**
 * The API tests of the domains that run on PostgreSQL so far, run again by the `postgres` project with those
 * domains on a throwaway cluster (`test/helpers/postgres-setup.ts`). Where PostgreSQL is missing, each of their
 * tests is skipped with the reason.
 */
const postgresTests = [
  'src-server/access/access.test.ts',
  'src-server/access/agent-change.test.ts',
  'src-server/admin-audit/admin-audit.test.ts',
  'src-server/ai/ai.test.ts',
  'src-server/ai/provider-admin.test.ts',
  'src-server/auth/auth.test.ts',
  'src-server/auth/avatar.test.ts',
  'src-server/auth/caller-cache.test.ts',
  'src-server/auth/desktop-token.test.ts',
  'src-server/auth/password-change.test.ts',
  'src-server/auth/revocation.test.ts',
  'src-server/auth/sign-in-limits.test.ts',
  'src-server/auth/trusted-proxies.test.ts',
  'src-server/auth/stored-rate-limit.test.ts',
  'src-server/document-recognition/document-recognition.api.test.ts',
  'src-server/document-recognition/document-recognition.approve-export.test.ts',
  'src-server/document-recognition/document-recognition.extraction.test.ts',
  'src-server/document-recognition/document-recognition.grant.test.ts',
  'src-server/document-recognition/document-recognition.learning.test.ts',
  'src-server/document-recognition/document-recognition.llm.test.ts',
  'src-server/document-recognition/document-recognition.overview.test.ts',
  'src-server/document-recognition/document-recognition.page-review.test.ts',
  'src-server/document-recognition/document-recognition.queue-counts.test.ts',
  'src-server/document-recognition/document-recognition.region-read.test.ts',
  'src-server/document-recognition/document-recognition.second-reading.test.ts',
  'src-server/document-recognition/document-recognition.review.test.ts',
  'src-server/document-recognition/runs/stored-config.test.ts',
  'src-server/evaluation/datasets.test.ts',
  'src-server/evaluation/evaluation-runs.test.ts',
  'src-server/conversation/agents.test.ts',
  'src-server/conversation/audience.test.ts',
  'src-server/conversation/handoff.test.ts',
  'src-server/conversation/inbox.test.ts',
  'src-server/conversation/sessions.test.ts',
  'src-server/conversation/stream.test.ts',
  'src-server/platform/events/event-bus.test.ts',
  'src-server/knowledge/citation-access.test.ts',
  'src-server/knowledge/document-file.test.ts',
  'src-server/knowledge/ingestion.test.ts',
  'src-server/knowledge/progressive.test.ts',
  'src-server/knowledge/resume.test.ts',
  'src-server/knowledge/retrieval.test.ts',
  'src-server/knowledge/sources.test.ts',
  'src-server/mcp/mcp-privilege.test.ts',
  'src-server/mcp/mcp-servers.test.ts',
  'src-server/mcp/tool-runtime.test.ts',
  'src-server/marketplace/history.test.ts',
  'src-server/marketplace/idempotent-fault.test.ts',
  'src-server/marketplace/listing-search.test.ts',
  'src-server/marketplace/listings.test.ts',
  'src-server/marketplace/money-rules.test.ts',
  'src-server/marketplace/orders.test.ts',
  'src-server/marketplace/wallet.test.ts',
  'src-server/settings/settings.test.ts',
]

/** The converted domains on a throwaway cluster, one for the run, started by the project's global setup. */
const onPostgres = {
  env: { SWITCHBOARD_TEST_ENGINE: 'postgres' },
  globalSetup: ['test/helpers/postgres-setup.ts'],
  setupFiles: ['test/helpers/postgres-skip.ts'],
}

/**
 * Vitest's own order (each project's files longest first by the last run's times, else largest first), with the
 * `slow` project's files ahead of the others instead of after them (Vitest orders projects by name). They are the
 * longest files: last, the suite ended on one of them with the other worker idle (with no earlier times, as in a
 * fresh checkout, the 15-line file that trains the invoice ranker, the longest of all, started last of all), and
 * their OCR met the e2e review tests that `npm test` runs beside Vitest and that read scans too. `quick`'s files stay
 * together after them, so its shared workers are not ended between files.
 */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const slow = sorted.filter((file) => file.project.name === 'slow')
    return [...slow, ...sorted.filter((file) => file.project.name !== 'slow')]
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    sequence: { sequencer: SlowFirstSequencer },
    // Two cores: more parallel files only thrash. Each file builds its own server on its own temp dir.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Server processes, and test servers' reading processes, start from a bundle built once for the run, not from
    // the sources through tsx.
    globalSetup: ['test/helpers/server-bundle-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: serverTests,
          exclude: [...slowTests, ...instanceTests],
          // Files share a worker's loaded modules instead of importing the whole server again for each file:
          // every file builds its own server on its own data dir, and no server file is mocked.
          isolate: false,
        },
      },
      // The console's store tests mock modules (`vi.mock`), so each file gets its own module graph.
      { extends: true, test: { name: 'console', include: ['src-renderer/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'slow', include: slowTests } },
      {
        extends: true,
        test: { name: 'postgres', include: postgresTests, ...onPostgres },
      },
      // Like `quick`'s, its files share a worker's loaded modules: a quarter less CPU than importing them for each.
      { extends: true, test: { name: 'instances', include: instanceTests, isolate: false, ...onPostgres } },
    ],
  },
})
