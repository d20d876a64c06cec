import type { ModelRegistry } from '../../ai'
import type { AppContext } from '../../platform/app-context'
import type { Bbox } from '../document-recognition.tables'
import { extractFromInvoiceXml } from '../extraction/e-invoice-fields'
import type { ExtractedField } from '../extraction/extracted-field'
import { ExtractionConfig, type FieldDefinition, validateExtractionConfig } from '../extraction/field-config'
import { partiesReadAgain, rowOf, unsureParties } from '../extraction/invoice-ranker/second-reading'
import { extractWithModel } from '../extraction/llm'
import { boxHoldsValue } from '../extraction/locate'
import { type ValidationIssue, validateFields } from '../extraction/validate'
import { learnedFields } from '../learning/learning'
import type { PageText } from '../page-text'
import { type ExecutionResult, policyOf, type RunExecutor } from '../runs/runs.service'
import { ocrPage, pagesNeedingOcr, readRowsAgain, withPageReadings } from './document-pages'
import type { NormalisedSource } from './normalise'
import type { ReadingProcesses } from './reading-processes'
import { RunFailure, runStep } from './steps'

/** The raw structured result of a run (`workspace_output`). */
export interface ExtractionOutput {
  strategy: ExtractionConfig['strategy']
  model_mode: 'structured' | 'json_text' | null
  model_answer: Record<string, unknown> | null
  e_invoice: boolean
  ocr_pages: number[]
  pages: { page_number: number; width: number; height: number }[]
  fields: ExtractedField[]
  validation: ValidationIssue[]
  step_retries: { step: string; attempt: number; error: string }[]
  /** OCR readings that failed without failing the run (PaddleOCR's second reading of a page). */
  ocr_errors: { page_number: number; reading: number; error: string }[]
}

/** What the executor hands to `onCompleted`: the result plus the words of each page, stored for review. */
export interface DocumentExecution extends ExecutionResult {
  output: ExtractionOutput
  pageTexts: (PageText & { origin: 'text_layer' | 'ocr' })[]
}

/** A value that is not inside its own box (or has none): the box and the value disagree. */
export function placementIssues(
  config: ExtractionConfig,
  fields: ExtractedField[],
  pages: PageText[],
): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  for (const field of fields) {
    const definition = config.fields.find((f) => f.key === field.key)
    if (!definition || field.value === null) continue
    const page = pages.find((p) => p.page_number === field.page_number)
    if (!page || !field.bbox)
      issues.push({
        field_key: field.key,
        message:
          field.method === 'derived'
            ? `${definition.label} is not printed on the page: it was worked out from other values on it.`
            : `${definition.label} was not found on the page.`,
      })
    // A derived value is not printed: its box, when it has one, shows what it was computed from.
    else if (field.method !== 'derived' && !boxHoldsValue(definition, page, field.bbox, field.value))
      issues.push({
        field_key: field.key,
        message: `The words inside the box of ${definition.label} do not read as its value.`,
      })
  }
  return issues
}

/**
 * The invoice ranker's fields with their party names read again (`extraction/invoice-ranker/second-reading.ts`):
 * on each scanned page, the rows of the names with an unsure word are read by PaddleOCR. A reading that fails
 * leaves the page's names as tesseract read them, and is named in `errors`; each of those names goes to a reviewer
 * (`issues`): its confidence is the ranker's that it is the party, not that its letters are right, and the
 * reading that was to check its unsure word did not.
 */
async function withPartiesReadAgain(
  reading: ReadingProcesses,
  source: NormalisedSource,
  ocrPages: number[],
  read: { fields: ExtractedField[]; pages: PageText[] },
  signal: AbortSignal,
  found: {
    errors: ExtractionOutput['ocr_errors']
    issues: ValidationIssue[]
    definitions: FieldDefinition[]
  },
): Promise<{ fields: ExtractedField[]; pages: PageText[] }> {
  const names = new Map<number, ExtractedField[]>()
  for (const name of unsureParties(read.fields, read.pages))
    if (rowOf(name) && name.page_number !== null && ocrPages.includes(name.page_number))
      names.set(name.page_number, [...(names.get(name.page_number) ?? []), name])
  let result = read
  for (const [pageNumber, pageNames] of names) {
    const page = read.pages.find((p) => p.page_number === pageNumber)
    if (!page) continue
    try {
      const image = source.pageImages?.[pageNumber - 1]
      const rows = pageNames.map((name) => rowOf(name) as Bbox)
      const again = await readRowsAgain(reading, source.pdf, page, rows, signal, image)
      result = partiesReadAgain(result.fields, result.pages, [again])
    } catch (error) {
      if (signal.aborted) throw error
      const cause = error instanceof Error ? error.message : String(error)
      found.errors.push({ page_number: pageNumber, reading: 2, error: cause })
      for (const name of pageNames) {
        const label = found.definitions.find((d) => d.key === name.key)?.label ?? name.key
        found.issues.push({
          field_key: name.key,
          message: `${label} holds a word tesseract read unsurely, and reading it again failed (${cause}).`,
        })
      }
    }
  }
  return result
}

/**
 * The `document_extraction` executor: normalise to PDF, text layer, OCR of pages without text, e-invoice
 * XML, extraction by the configured strategy, validation. Each step retries `step_retries` times.
 */
export function documentExtractionExecutor(
  ctx: AppContext,
  deps: { models?: ModelRegistry; reading: ReadingProcesses },
): Omit<RunExecutor<typeof ExtractionConfig>, 'onCompleted'> {
  return {
    configSchema: ExtractionConfig,
    validateConfig: validateExtractionConfig,
    async execute({ run, config, source, signal, progress }) {
      const policy = policyOf(config)
      const retries: ExtractionOutput['step_retries'] = []
      const step = <T>(name: string, work: () => Promise<T>) =>
        runStep(name, policy.step_retries, signal, work, (attempt, error) =>
          retries.push({
            step: name,
            attempt,
            error: error instanceof Error ? error.message : String(error),
          }),
        )

      progress({ step: 'normalise' })
      // In the reading process: decoding a large image takes CPU and memory the server's process should not keep.
      const normalised = await step('normalise', () =>
        deps.reading.normalise(source, run.mimeType, policy.max_pages),
      )
      const stored = await ctx.blobs.put(normalised.pdf)
      progress({ step: 'text' })
      const textLayer =
        normalised.textLayer ?? (await step('text', () => deps.reading.textLayer(normalised.pdf)))
      const ocrPages = pagesNeedingOcr(textLayer)
      // The invoice ranker chooses in one reading, and reads a page a second time only for an unsure party name.
      const partiesReread = config.ranker === 'invoice' && (config.ocr_readings ?? 1) > 1
      // Every reading of the document: the text layer's pages with each scanned page as one OCR reading read it.
      let readings: PageText[][] = [textLayer]
      const ocrErrors: ExtractionOutput['ocr_errors'] = []
      // Party names whose second reading failed (`withPartiesReadAgain`).
      const unchecked: ValidationIssue[] = []
      // Page by page: one page's images are in memory at a time, and the OCR engine reads one page at a time.
      for (const [index, pageNumber] of ocrPages.entries()) {
        const page = textLayer.find((p) => p.page_number === pageNumber) as PageText
        const options = {
          pageImage: normalised.pageImages?.[pageNumber - 1],
          readings: partiesReread ? 1 : (config.ocr_readings ?? 1),
          rereadSparse: config.ocr_reread_sparse ?? false,
        }
        progress({ step: 'ocr', page: pageNumber, pages: ocrPages.length, pages_read: index })
        const read = await step('ocr', () =>
          ocrPage(deps.reading, normalised.pdf, page, signal, options).catch((error: unknown) => {
            if (signal.aborted) throw error
            const cause = error instanceof Error ? error.message : String(error)
            throw new RunFailure('OCR_FAILED', `page ${pageNumber} could not be read (${cause}).`)
          }),
        )
        if (read.secondFailed)
          ocrErrors.push({ page_number: pageNumber, reading: 2, error: read.secondFailed })
        readings = withPageReadings(readings, read.readings)
      }
      progress({ step: 'extract' })
      let pages = readings[0] as PageText[]
      const xml = normalised.invoiceXml
      const fromXml = xml
        ? extractFromInvoiceXml(config.fields, xml, pages)
        : new Map<string, ExtractedField>()

      let modelMode: ExtractionOutput['model_mode'] = null
      let modelAnswer: ExtractionOutput['model_answer'] = null
      // Hints learned from reviews of this layout come before the general rules (the issuer's XML before both).
      const learned = await learnedFields(
        ctx.database.reader,
        run.agentVersionId,
        config.fields.filter((f) => !fromXml.has(f.key)),
        pages,
      )
      const missing = config.fields.filter((f) => !fromXml.has(f.key) && !learned.has(f.key))
      let extracted: ExtractedField[] = []
      if (missing.length > 0) {
        if (config.strategy === 'llm') {
          const models = deps.models
          if (!models)
            throw new Error('extract failed: no model registry is configured for the llm strategy.')
          const answer = await step('extract', () =>
            extractWithModel(models, { ...config, fields: missing }, pages, signal),
          )
          extracted = answer.fields
          modelMode = answer.mode
          modelAnswer = answer.answer
        } else {
          const known = [...fromXml.values(), ...learned.values()]
          const ranked = await step('extract', () =>
            deps.reading.extract({ fields: missing, readings, known, ranker: config.ranker }),
          )
          const read = partiesReread
            ? await withPartiesReadAgain(deps.reading, normalised, ocrPages, ranked, signal, {
                errors: ocrErrors,
                issues: unchecked,
                definitions: config.fields,
              })
            : ranked
          extracted = read.fields
          pages = read.pages
        }
      }
      const byKey = new Map([...extracted.map((f) => [f.key, f] as const), ...learned, ...fromXml])
      const fields = config.fields.map((f) => byKey.get(f.key) as ExtractedField)
      const validated = await step('validate', async () => validateFields(config.fields, fields))
      const output: ExtractionOutput = {
        strategy: config.strategy,
        model_mode: modelMode,
        model_answer: modelAnswer,
        e_invoice: xml !== null,
        ocr_pages: ocrPages,
        pages: pages.map((p) => ({ page_number: p.page_number, width: p.width, height: p.height })),
        fields: validated.fields,
        validation: [...validated.issues, ...placementIssues(config, validated.fields, pages), ...unchecked],
        step_retries: retries,
        ocr_errors: ocrErrors,
      }
      const result: DocumentExecution = {
        output,
        pdfSha256: stored.sha256,
        pageCount: normalised.pageCount,
        pageTexts: pages.map((p) => ({
          ...p,
          origin: ocrPages.includes(p.page_number) ? 'ocr' : 'text_layer',
        })),
      }
      return result
    },
  }
}
