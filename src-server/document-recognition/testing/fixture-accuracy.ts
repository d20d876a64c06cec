import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib'
import { fixturePath } from '../../../test/helpers/fixtures'
import type { FieldValue } from '../document-recognition.tables'
import type { ExtractedField } from '../extraction/extracted-field'
import type { ExtractionConfig, FieldDefinition } from '../extraction/field-config'
import { boxHoldsValue } from '../extraction/locate'
import { extractWithRules } from '../extraction/rules'
import { validateFields } from '../extraction/validate'
import { normaliseValue } from '../extraction/values'
import { OcrEngine } from '../pipeline/ocr'
import { type PageText, readPdfText, renderPdfPage } from '../pipeline/pdf-pages'

export const FIXTURES_DIR = process.env.SWITCHBOARD_FIXTURES ?? fixturePath('invoices')

/** invoice2data's golden keys mapped to the shipped invoice extractor's fields. */
const INVOICE2DATA_KEYS: Record<string, string> = {
  invoice_number: 'invoice_number',
  date: 'invoice_date',
  date_due: 'due_date',
  amount: 'total_amount',
  amount_tax: 'tax_amount',
  amount_untaxed: 'net_amount',
  currency: 'currency',
}

export interface FixtureCase {
  name: string
  pdf: Uint8Array
  expected: Record<string, FieldValue>
}

/** A PDF without its embedded files, so the page itself has to be read. */
export async function stripEmbeddedFiles(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false })
  doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.delete(PDFName.of('EmbeddedFiles'))
  doc.catalog.delete(PDFName.of('AF'))
  return doc.save()
}

export async function loadFixtureCases(): Promise<FixtureCase[]> {
  const cases: FixtureCase[] = []
  const i2d = path.join(FIXTURES_DIR, 'invoice2data')
  for (const file of readdirSync(i2d)
    .filter((f) => f.endsWith('.pdf'))
    .sort()) {
    const golden = JSON.parse(readFileSync(path.join(i2d, file.replace(/\.pdf$/, '.json')), 'utf8'))
    const record = (Array.isArray(golden) ? golden[0] : golden) as Record<string, FieldValue>
    const expected: Record<string, FieldValue> = {}
    for (const [from, to] of Object.entries(INVOICE2DATA_KEYS))
      if (from in record) expected[to] = record[from] ?? null
    cases.push({ name: `invoice2data/${file}`, pdf: readFileSync(path.join(i2d, file)), expected })
  }
  const facturx = path.join(FIXTURES_DIR, 'facturx')
  const golden = JSON.parse(readFileSync(path.join(facturx, 'expected.json'), 'utf8')) as Record<
    string,
    Record<string, FieldValue>
  >
  for (const [file, record] of Object.entries(golden)) {
    const { pages: _pages, ...expected } = record
    cases.push({
      name: `facturx/${file}`,
      pdf: await stripEmbeddedFiles(readFileSync(path.join(facturx, file))),
      expected,
    })
  }
  return cases
}

export function shippedInvoiceConfig(appRoot = process.cwd()): ExtractionConfig {
  const file = path.join(appRoot, 'resources', 'runtime-agents', 'invoice-extractor.json')
  return (JSON.parse(readFileSync(file, 'utf8')) as { config: ExtractionConfig }).config
}

function sameValue(field: FieldDefinition, expected: FieldValue, actual: FieldValue): boolean {
  const want = normaliseValue(field, expected)
  if (want === null) return actual === null
  if (typeof want === 'number') return typeof actual === 'number' && Math.abs(actual - want) < 0.005
  if (typeof want === 'string' && typeof actual === 'string')
    return want.replace(/\s+/g, '').toLowerCase() === actual.replace(/\s+/g, '').toLowerCase()
  return want === actual
}

export interface FieldScore {
  field: string
  expected: number
  correct: number
  boxed: number
}

export interface CaseResult {
  name: string
  fields: { key: string; expected: FieldValue; actual: FieldValue; correct: boolean; boxHit: boolean }[]
}

export interface OcrOptions {
  ocr: boolean
  /** Applied to each rendered page before OCR (scan noise). */
  imageFilter?: (png: Buffer) => Promise<Buffer>
  /** A shared engine, so the model loads once for many fixtures. */
  engine?: OcrEngine
}

/** Pages of a fixture: its text layer, or OCR of every page rendered to PNG (optionally degraded first). */
export async function fixturePages(pdf: Uint8Array, options: OcrOptions): Promise<PageText[]> {
  const pages = await readPdfText({ bytes: pdf })
  if (!options.ocr) return pages
  const read: PageText[] = []
  const ocr = options.engine ?? new OcrEngine()
  try {
    for (const page of pages) {
      const scale = 1700 / page.width
      const rendered = Buffer.from(await renderPdfPage({ bytes: pdf, pageNumber: page.page_number, scale }))
      const image = options.imageFilter ? await options.imageFilter(rendered) : rendered
      read.push({ ...page, words: await ocr.recognise(image) })
    }
  } finally {
    if (!options.engine) await ocr.close()
  }
  return read
}

/** Runs the rules strategy over one fixture and scores each expected field (value, and box holding the value). */
export async function scoreCase(
  config: ExtractionConfig,
  fixture: FixtureCase,
  options: OcrOptions = { ocr: false },
): Promise<CaseResult> {
  const pages = await fixturePages(fixture.pdf, options)
  const { fields } = validateFields(config.fields, extractWithRules(config.fields, pages))
  const byKey = new Map<string, ExtractedField>(fields.map((f) => [f.key, f]))
  return {
    name: fixture.name,
    fields: Object.entries(fixture.expected).flatMap(([key, expected]) => {
      const definition = config.fields.find((f) => f.key === key)
      if (!definition) return []
      const field = byKey.get(key)
      const actual = field?.value ?? null
      const correct = sameValue(definition, expected, actual)
      const page = pages.find((p) => p.page_number === field?.page_number)
      const boxHit = Boolean(
        correct &&
          page &&
          field?.bbox &&
          actual !== null &&
          boxHoldsValue(definition, page, field.bbox, actual),
      )
      return [{ key, expected, actual, correct, boxHit }]
    }),
  }
}

export function summarise(results: CaseResult[]): {
  perField: FieldScore[]
  accuracy: number
  bboxHitRate: number
} {
  const perField = new Map<string, FieldScore>()
  for (const result of results)
    for (const field of result.fields) {
      const score = perField.get(field.key) ?? { field: field.key, expected: 0, correct: 0, boxed: 0 }
      score.expected++
      if (field.correct) score.correct++
      if (field.boxHit) score.boxed++
      perField.set(field.key, score)
    }
  const scores = [...perField.values()]
  const expected = scores.reduce((a, s) => a + s.expected, 0)
  const correct = scores.reduce((a, s) => a + s.correct, 0)
  const boxed = scores.reduce((a, s) => a + s.boxed, 0)
  return {
    perField: scores,
    accuracy: expected ? correct / expected : 0,
    bboxHitRate: correct ? boxed / correct : 0,
  }
}
