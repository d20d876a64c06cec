import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
} from 'pdf-lib'

const XML_NAMES = /(factur-x|zugferd|xrechnung|order-x|cii)[^/]*\.xml$/i

/** Embedded files of a PDF (name -> bytes), read from the catalog's EmbeddedFiles name tree. */
function embeddedFiles(doc: PDFDocument): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict)
  const visit = (node: PDFDict | undefined, depth: number) => {
    if (!node || depth > 8) return
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray)
    for (let i = 0; kids && i < kids.size(); i++) visit(kids.lookupMaybe(i, PDFDict), depth + 1)
    const pairs = node.lookupMaybe(PDFName.of('Names'), PDFArray)
    for (let i = 0; pairs && i + 1 < pairs.size(); i += 2) {
      const spec = pairs.lookupMaybe(i + 1, PDFDict)
      const nameObject = spec?.get(PDFName.of('UF')) ?? spec?.get(PDFName.of('F'))
      const name =
        nameObject instanceof PDFString || nameObject instanceof PDFHexString ? nameObject.decodeText() : ''
      const stream = spec?.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'))
      if (stream instanceof PDFRawStream) files.set(name, decodePDFRawStream(stream).decode())
    }
  }
  visit(tree, 0)
  return files
}

/** The embedded Factur-X / ZUGFeRD / XRechnung XML of a loaded PDF, or null when it has none. */
export function embeddedInvoiceXml(doc: PDFDocument): string | null {
  for (const [name, bytes] of embeddedFiles(doc)) {
    const text = new TextDecoder().decode(bytes)
    if (XML_NAMES.test(name) || /CrossIndustryInvoice/.test(text.slice(0, 2000))) return text
  }
  return null
}
