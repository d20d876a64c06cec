import { measureUploadMemory, UPLOAD_MEMORY_BUDGET_MB } from '../test/helpers/upload-memory'
import type { BenchResult } from './run'

/** The server's resident memory growth under the two hostile uploads (the reliability suite holds the budgets). */
export async function run(): Promise<BenchResult[]> {
  const { docxBomb, multipart360 } = await measureUploadMemory()
  return [
    {
      name: 'RSS growth, 1.5 MB docx inflating to 1.5 GB (declares 400 KB)',
      value: docxBomb.growthMb,
      unit: 'MB',
      budget: `< ${UPLOAD_MEMORY_BUDGET_MB.docxBomb} MB`,
      pass: docxBomb.growthMb < UPLOAD_MEMORY_BUDGET_MB.docxBomb,
      note: `answered ${docxBomb.status} ${docxBomb.code ?? ''}`.trim(),
    },
    {
      name: 'RSS growth, 360 MB multipart upload (8 files of 45 MB)',
      value: multipart360.growthMb,
      unit: 'MB',
      budget: `< ${UPLOAD_MEMORY_BUDGET_MB.multipart360} MB`,
      pass: multipart360.growthMb < UPLOAD_MEMORY_BUDGET_MB.multipart360,
      note: `answered ${multipart360.status}`,
    },
  ]
}
