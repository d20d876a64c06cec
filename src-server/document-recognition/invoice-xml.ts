import { EntityDecoder, XML } from '@nodable/entities'
import { XMLParser, XMLValidator } from 'fast-xml-parser'

/*
 * Reading an e-invoice's XML (Factur-X / ZUGFeRD / XRechnung, CII): the pipeline finds it inside the PDF, extraction
 * reads fields from it. Kept at the domain's root so extraction does not reach up into the pipeline for it.
 */

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
