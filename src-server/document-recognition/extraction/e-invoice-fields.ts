import { parseInvoiceXml, xmlText } from '../invoice-xml'
import type { PageText } from '../page-text'
import { type ExtractedField, notFound } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { locateValue } from './locate'
import { normaliseValue } from './values'

/**
 * Fields read from the issuer's own e-invoice XML: confidence 1. Boxes still come from the page, where the
 * printed value is searched for. Fields without an XML path, or absent from the XML, are left to the page, and
 * so is every field when the XML is not well-formed.
 */
export function extractFromInvoiceXml(
  fields: FieldDefinition[],
  xml: string,
  pages: PageText[],
): Map<string, ExtractedField> {
  const found = new Map<string, ExtractedField>()
  const tree = parseInvoiceXml(xml)
  if (!tree) return found
  for (const field of fields) {
    const raw = (field.e_invoice ?? []).map((path) => xmlText(tree, path)).find((text) => text !== null)
    const value = raw ? normaliseValue(field, raw) : null
    if (value === null) continue
    const located = locateValue(field, pages, value)
    found.set(field.key, {
      ...notFound(field.key),
      value,
      confidence: 1,
      page_number: located?.pageNumber ?? null,
      bbox: located?.bbox ?? null,
      method: 'e_invoice',
    })
  }
  return found
}
