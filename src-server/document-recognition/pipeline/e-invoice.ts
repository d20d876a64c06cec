import { EntityDecoder, XML } from '@nodable/entities'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
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

/** The embedded Factur-X / ZUGFeRD / XRechnung XML of a PDF, or null when it has none. */
export async function readEmbeddedInvoiceXml(pdf: Uint8Array): Promise<string | null> {
  const doc = await PDFDocument.load(pdf, {
    ignoreEncryption: true,
    updateMetadata: false,
    throwOnInvalidObject: true,
  })
  for (const [name, bytes] of embeddedFiles(doc)) {
    const text = new TextDecoder().decode(bytes)
    if (XML_NAMES.test(name) || /CrossIndustryInvoice/.test(text.slice(0, 2000))) return text
  }
  return null
}

/** One node of a document-ordered parse: an element (its local name -> its children) or a text. */
type XmlNode = { '#text': string } | Record<string, XmlNode[]>

/**
 * Namespace prefixes dropped (paths name local names), attributes and comments ignored, values kept as the text
 * written ("007" stays a string). The XML entity decoder is passed explicitly because the parser's default one
 * leaves numeric character references (`&#252;`) undecoded.
 */
const parser = new XMLParser({
  preserveOrder: true,
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  entityDecoder: new EntityDecoder({ namedEntities: XML }),
})

/** The e-invoice as a tree in document order; null when it is not well-formed XML. */
export function parseInvoiceXml(xml: string): XmlNode[] | null {
  if (XMLValidator.validate(xml) !== true) return null
  return parser.parse(xml) as XmlNode[]
}

/**
 * The text of the first element at a path of local names ("SellerTradeParty/Name"); each step searches, in
 * document order, inside the previous element. Texts of nested elements are joined by a space.
 */
export function xmlText(tree: XmlNode[], path: string): string | null {
  let scope: XmlNode[] | null = tree
  for (const name of path.split('/')) {
    scope = scope && firstElement(scope, name)
    if (!scope) return null
  }
  return texts(scope).join(' ').replace(/\s+/g, ' ').trim() || null
}

function firstElement(nodes: XmlNode[], name: string): XmlNode[] | null {
  for (const node of nodes) {
    const [tag, children] = Object.entries(node)[0] ?? []
    if (tag === '#text' || !Array.isArray(children)) continue
    if (tag === name) return children
    const inner = firstElement(children, name)
    if (inner) return inner
  }
  return null
}

function texts(nodes: XmlNode[]): string[] {
  return nodes.flatMap((node) =>
    '#text' in node ? [String(node['#text'])] : texts(Object.values(node)[0] ?? []),
  )
}
