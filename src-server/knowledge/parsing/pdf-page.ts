/**
 * One page of a PDF as a PDF of its own (what a citation of that page grants, instead of the whole file). Runs on a
 * worker thread: pdf-lib parses the whole file. Throws when the file cannot be read or has no such page.
 */
export async function extractPdfPage(input: { bytes: Uint8Array; pageNumber: number }): Promise<Uint8Array> {
  // Loaded on the first cited page, never by importing this module (the request thread imports it through parsing).
  const { PDFDocument } = await import('pdf-lib')
  const source = await PDFDocument.load(input.bytes, { updateMetadata: false })
  if (input.pageNumber < 1 || input.pageNumber > source.getPageCount())
    throw new Error(`The PDF has no page ${input.pageNumber}.`)
  const single = await PDFDocument.create()
  const [page] = await single.copyPages(source, [input.pageNumber - 1])
  if (page) single.addPage(page)
  return single.save()
}
