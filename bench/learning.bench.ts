/**
 * Accuracy after one correction per supplier (issue #15): for each issuer with two or more documents in the
 * development sets, the first document's wrong fields are corrected by taking them from the page (the expected
 * value's words, found on the page, as a reviewer would click them); the hints learned from that are used on the
 * issuer's other documents, which are scored before (general rules) and after (learned hints first, then the rules,
 * as `pipeline/run-extraction.ts` does). Per field, exact match after normalising numbers and dates.
 * Text layer only: learning does not depend on how the words were read.
 */
import { notFound } from '../src-server/document-recognition/extraction/extracted-field'
import type { FieldDefinition } from '../src-server/document-recognition/extraction/field-config'
import { locateValue } from '../src-server/document-recognition/extraction/locate'
import { extractWithRules } from '../src-server/document-recognition/extraction/rules'
import { normaliseValue } from '../src-server/document-recognition/extraction/values'
import { layoutFingerprint } from '../src-server/document-recognition/learning/fingerprint'
import { type Hint, lessonFrom } from '../src-server/document-recognition/learning/hints'
import { readWithHints } from '../src-server/document-recognition/learning/learning'
import type { PageText } from '../src-server/document-recognition/page-text'
import {
  type CaseResult,
  type FixtureCase,
  fixturePages,
  loadFixtureCases,
  scoreCase,
  shippedExtractorConfig,
  summarise,
} from '../test/helpers/document-recognition/fixture-accuracy'
import type { BenchResult } from './run'

const percent = (n: number) => Math.round(n * 1000) / 10

/**
 * What a reviewer teaches on the first document: each wrong field (or, with `every`, each field) taken from where
 * its expected value is printed.
 */
async function lessonsOf(
  first: FixtureCase,
  definitions: FieldDefinition[],
  every: boolean,
): Promise<Hint[]> {
  const config = shippedExtractorConfig('invoice-extractor')
  const scored = await scoreCase(config, first)
  const pages = await fixturePages(first.pdf, { ocr: false })
  return scored.fields.flatMap((field): Hint[] => {
    const definition = definitions.find((d) => d.key === field.key)
    if ((field.correct && !every) || !definition) return []
    const place = locateValue(definition, pages, normaliseValue(definition, field.expected))
    const page = pages.find((p) => p.page_number === place?.pageNumber)
    if (!place || !page) return []
    return [
      {
        ...lessonFrom(page, place.bbox),
        fieldKey: field.key,
        confirmations: 1,
        learnedFromRunId: first.name,
      },
    ]
  })
}

/** Learned hints before the general rules, for documents of the layout they were learned on. */
function withHints(hints: Hint[], fingerprint: string | null) {
  return (definitions: FieldDefinition[], pages: PageText[]) => {
    const learned =
      fingerprint && layoutFingerprint(pages) === fingerprint
        ? readWithHints(hints, definitions, pages)
        : new Map()
    const rules = extractWithRules(
      definitions.filter((d) => !learned.has(d.key)),
      pages,
    )
    return definitions.map((d) => learned.get(d.key) ?? rules.find((f) => f.key === d.key) ?? notFound(d.key))
  }
}

const learnedValues = (results: CaseResult[]) =>
  results.flatMap((r) => r.fields).filter((f) => f.learned).length
const wrongLearned = (results: CaseResult[]) =>
  results.flatMap((r) => r.fields).filter((f) => f.learned && !f.correct).length

export async function run(): Promise<BenchResult[]> {
  const config = shippedExtractorConfig('invoice-extractor')
  const byIssuer = new Map<string, FixtureCase[]>()
  for (const fixture of await loadFixtureCases())
    byIssuer.set(fixture.issuer, [...(byIssuer.get(fixture.issuer) ?? []), fixture])
  const before: CaseResult[] = []
  const after: CaseResult[] = []
  const afterAll: CaseResult[] = []
  let taught = 0
  const issuers: string[] = []
  for (const [issuer, fixtures] of byIssuer) {
    if (fixtures.length < 2) continue
    issuers.push(`${issuer} (${fixtures.length})`)
    const [first, ...rest] = fixtures.sort((a, b) => a.name.localeCompare(b.name)) as [
      FixtureCase,
      ...FixtureCase[],
    ]
    const hints = await lessonsOf(first, config.fields, false)
    const everyHint = await lessonsOf(first, config.fields, true)
    taught += hints.length
    const fingerprint = layoutFingerprint(await fixturePages(first.pdf, { ocr: false }))
    for (const fixture of rest) {
      before.push(await scoreCase(config, fixture))
      after.push(await scoreCase(config, fixture, { ocr: false }, withHints(hints, fingerprint)))
      afterAll.push(await scoreCase(config, fixture, { ocr: false }, withHints(everyHint, fingerprint)))
    }
  }
  const was = summarise(before)
  const now = summarise(after)
  const confirmedAll = summarise(afterAll)
  const note = `issuers with 2+ documents: ${issuers.join(', ')}; ${taught} field(s) taught on their first documents`
  const results: BenchResult[] = [
    {
      name: 'field accuracy after one correction per supplier (other documents of the supplier)',
      value: percent(now.accuracy),
      unit: '%',
      baseline: { name: 'general rules only', value: percent(was.accuracy) },
      note,
    },
    {
      name: 'field accuracy after every field of the first document was taken from the page',
      value: percent(confirmedAll.accuracy),
      unit: '%',
      baseline: { name: 'general rules only', value: percent(was.accuracy) },
      note: 'learned hints on fields the rules already read: they must not make them worse',
    },
    { name: 'fields taught by correcting the first documents', value: taught, unit: 'fields' },
    {
      name: 'wrong learned values (other documents of the supplier, hints from corrections and from every field)',
      value: wrongLearned([...after, ...afterAll]),
      unit: 'values',
      note: `must be 0: a learned value that is wrong misleads the reviewer; ${learnedValues([...after, ...afterAll])} learned value(s) read`,
    },
  ]
  for (const field of now.perField) {
    const old = was.perField.find((f) => f.field === field.field)
    results.push({
      name: `after one correction: ${field.field}`,
      value: percent(field.expected ? field.correct / field.expected : 0),
      unit: '%',
      baseline: {
        name: 'general rules only',
        value: percent(old?.expected ? old.correct / old.expected : 0),
      },
    })
  }
  return results
}
