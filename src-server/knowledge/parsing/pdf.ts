/**
 * The text layer of each page (pdfjs-dist). Runs on a worker thread: parsing is CPU-bound and a hostile file
 * must not stall the request thread. Throws with a sentence a person can act on.
 */
export async function extractPdfPages(bytes: Uint8Array): Promise<string[]> {
  // Loaded here, on the worker, never by importing this module: pdfjs's legacy build installs core-js polyfills
  // that replace the global JSON.stringify and JSON.parse with slower JavaScript, which on the request thread
  // slowed every response and log line.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  })
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      const name = (error as { name?: string }).name
      if (name === 'PasswordException') throw new Error('The PDF is password-protected.')
      throw new Error(`The PDF cannot be read: ${(error as Error).message ?? String(error)}`)
    })
    const pages: string[] = []
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number)
      const content = await page.getTextContent()
      let text = ''
      for (const item of content.items) {
        if (!('str' in item)) continue
        text += item.str
        if (item.hasEOL) text += '\n'
      }
      pages.push(text.replace(/[ \t]+\n/g, '\n').trim())
      page.cleanup()
    }
    return pages
  } finally {
    await task.destroy()
  }
}
