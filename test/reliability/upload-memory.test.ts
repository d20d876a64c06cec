import { describe, expect, it } from 'vitest'
import { measureUploadMemory, UPLOAD_MEMORY_BUDGET_MB } from '../helpers/upload-memory'

/**
 * The memory budget for hostile uploads, on a server in its own process: its resident set grows by less than
 * 300 MB for a docx that inflates to 1.5 GB while declaring 400 KB, and by less than 200 MB for 360 MB of files in
 * one request (parts go to temporary files, never into memory whole).
 */
describe('memory under hostile uploads', () => {
  it('stays within budget for the docx bomb and a 360 MB multipart upload', async () => {
    const { docxBomb, multipart360 } = await measureUploadMemory()
    expect(docxBomb).toMatchObject({ status: 422, code: 'UNSAFE_ARCHIVE' })
    expect(docxBomb.growthMb).toBeLessThan(UPLOAD_MEMORY_BUDGET_MB.docxBomb)
    expect(multipart360.status).toBe(201)
    expect(multipart360.growthMb).toBeLessThan(UPLOAD_MEMORY_BUDGET_MB.multipart360)
  }, 600_000)
})
