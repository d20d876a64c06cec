/**
 * Trains the receipt extractor's learned weights and writes them beside the code that reads them:
 * - `shop-name.weights.json`: which line of a receipt is the shop's name (a softmax over the lines and "none"),
 *   from generated receipts of eight countries (`test/helpers/document-recognition/receipt-generator.ts`) and the
 *   tuning part of the SROIE receipts, both OCR readings of each;
 * - `receipt-confidence.weights.json`: the probability that a field's value is right, from evidence the extraction
 *   gathers (`receipt-confidence.ts`), fitted on the SROIE tuning part's values against their key file, and the
 *   probability under which a value goes to review (`review_below`), chosen on the same part out of fold.
 * The held-out part is never read. OCR is slow, so the receipts' readings come from a file the benchmark writes
 * (`BENCH_RECEIPT_READINGS=<file> BENCH_RECOGNITION_RECEIPTS_ONLY=1 npm run bench -- document-recognition`):
 *   npx tsx scripts/train-receipt-models.ts <readings.json>
 * Deterministic: the same readings give the same weights (`train-receipt-models.test.ts` trains again and compares).
 * Each weights file records what it was trained on (`trained_on`): fingerprints of the generated receipts' features
 * and of the SROIE tuning readings.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { FieldDefinition } from '../src-server/document-recognition/extraction/field-config'
import { distance } from '../src-server/document-recognition/extraction/header-name'
import { misreadName } from '../src-server/document-recognition/extraction/read-checks'
import { extractFromReadings } from '../src-server/document-recognition/extraction/readings'
import {
  CONFIDENCE_FEATURES,
  probabilityRight,
} from '../src-server/document-recognition/extraction/receipt-confidence'
import {
  FEATURES,
  nameOfCandidate,
  type ShopNameCandidate,
  shopNameCandidates,
} from '../src-server/document-recognition/extraction/shop-name'
import shopNameWeights from '../src-server/document-recognition/extraction/shop-name.weights.json'
import { validateFields } from '../src-server/document-recognition/extraction/validate'
import { fold } from '../src-server/document-recognition/extraction/values'
import type { PageText } from '../src-server/document-recognition/page-text'
import {
  isHeldOut,
  sameValue,
  shippedExtractorConfig,
} from '../test/helpers/document-recognition/fixture-accuracy'
import { loadReceiptCases } from '../test/helpers/document-recognition/receipt-accuracy'
import { generateReceipt } from '../test/helpers/document-recognition/receipt-generator'

const EXTRACTION = path.join(process.cwd(), 'src-server', 'document-recognition', 'extraction')
const GENERATED = 800
const plain = (text: string) => fold(text).replace(/[^\p{L}\p{N}]/gu, '')

/** How alike a line's name is to the key's (1 the same), letters and digits only: OCR misreads a letter or two. */
const likeness = (a: string, b: string) => {
  const longest = Math.max(a.length, b.length, 1)
  return 1 - distance(a, b, longest) / longest
}

/** One receipt's choice: its lines' features and which line is the name (-1: none). */
export interface Choice {
  features: number[][]
  answer: number
}

/** A line is the name when it reads as the key (OCR aside); a receipt whose lines are all unlike it teaches nothing. */
function choiceOf(candidates: ShopNameCandidate[], merchant: string | null, fuzzy: boolean): Choice | null {
  if (merchant === null) return { features: candidates.map((c) => c.features), answer: -1 }
  const want = plain(merchant)
  const like = candidates.map((c) => likeness(plain(nameOfCandidate(c)?.value ?? ''), want))
  const best = Math.max(...like)
  if (best < (fuzzy ? 0.75 : 1)) return null
  // The name's first printing is the answer; lines nearly as alike (the same name again in the footer) are neither
  // right nor wrong, so they are left out.
  const first = like.indexOf(best)
  const kept = candidates.flatMap((c, i) => (i === first || (like[i] as number) < 0.6 ? [c.features] : []))
  return {
    features: kept,
    answer: candidates.slice(0, first).filter((_, i) => (like[i] as number) < 0.6).length,
  }
}

/** Conditional logit (softmax over a receipt's lines and "none", whose score is 0), L2, batch gradient descent. */
function fitChoices(choices: Choice[], width: number, steps = 3000, rate = 0.5, l2 = 0.01): number[] {
  const w = new Array<number>(width).fill(0)
  for (let step = 0; step < steps; step++) {
    const gradient = w.map((x) => l2 * x)
    for (const { features, answer } of choices) {
      const scores = features.map((f) => f.reduce((a, x, i) => a + x * (w[i] as number), 0))
      const top = Math.max(0, ...scores)
      const exp = scores.map((s) => Math.exp(s - top))
      const sum = exp.reduce((a, b) => a + b, Math.exp(-top))
      features.forEach((f, k) => {
        const error = (exp[k] as number) / sum - (k === answer ? 1 : 0)
        f.forEach((x, i) => {
          gradient[i] = (gradient[i] as number) + (error * x) / choices.length
        })
      })
    }
    w.forEach((_, i) => {
      w[i] = (w[i] as number) - rate * (gradient[i] as number)
    })
  }
  return w.map((x) => Math.round(x * 1000) / 1000)
}

/** Logistic regression, L2, batch gradient descent. */
function fitLogistic(rows: Row[], width: number, steps = 4000, rate = 0.5, l2 = 0.005): number[] {
  const w = new Array<number>(width).fill(0)
  for (let step = 0; step < steps; step++) {
    const gradient = w.map((x) => l2 * x)
    for (const { x, y } of rows) {
      const p = probabilityRight(w, x)
      x.forEach((v, i) => {
        gradient[i] = (gradient[i] as number) + ((p - y) * v) / rows.length
      })
    }
    w.forEach((_, i) => {
      w[i] = (w[i] as number) - rate * (gradient[i] as number)
    })
  }
  return w.map((x) => Math.round(x * 1000) / 1000)
}

interface Row {
  x: number[]
  y: number
}

/**
 * The share of wrong values the review threshold is set to catch, and the folds that estimate it. Of the about 20
 * wrong tuning values, 95 % (the invoice ranker's share) would be all of them: the threshold would sit at the most
 * convincing one and move with every retraining.
 */
const WRONG_CAUGHT = 0.9
const FOLDS = 5

/** A field's values on the tuning receipts: the ones the model judges, and how many wrong ones go to review anyway. */
interface FieldRows {
  rows: Row[]
  /** Wrong values flagged whatever their probability: missing, failing validation, a name with misread marks. */
  flaggedWrong: number
}

/**
 * The probability under which a value goes to review, one for the three fields: it catches WRONG_CAUGHT of the
 * tuning receipts' wrong values, each judged by weights fitted without its fold (as the invoice ranker's threshold
 * is chosen), a missing value or one failing a check counted as caught. Never under even odds.
 */
function reviewThreshold(fields: FieldRows[], width: number): number {
  const judged: number[] = []
  for (const { rows } of fields)
    for (let fold = 0; fold < FOLDS; fold++) {
      const w = fitLogistic(
        rows.filter((_, i) => i % FOLDS !== fold),
        width,
      )
      for (const row of rows.filter((r, i) => i % FOLDS === fold && r.y === 0))
        judged.push(probabilityRight(w, row.x))
    }
  judged.sort((a, b) => a - b)
  const flagged = fields.reduce((a, f) => a + f.flaggedWrong, 0)
  const needed = Math.ceil((judged.length + flagged) * WRONG_CAUGHT) - flagged
  const caught = needed > 0 ? judged[needed - 1] : 0
  return Math.round(Math.min(0.99, Math.max(0.5, (caught ?? 0) + 0.001)) * 1e6) / 1e6
}

const fingerprint = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex')

/** The shop-name choices the generated receipts teach, the same on every run (seeded). */
export function generatedChoices(): Choice[] {
  const choices: Choice[] = []
  for (let seed = 1; seed <= GENERATED; seed++) {
    const receipt = generateReceipt(seed)
    const choice = choiceOf(shopNameCandidates([receipt.page]), receipt.merchant, false)
    if (choice) choices.push(choice)
  }
  return choices
}

/** What weights were trained on: the generated receipts' features and the SROIE tuning readings, by fingerprint. */
export interface TrainedOn {
  generated: string
  sroie_tuning_readings: string
}

export interface ReceiptModels {
  shopName: { trained_on: TrainedOn; features: readonly string[]; weights: number[] }
  confidence: {
    trained_on: TrainedOn
    features: readonly string[]
    review_below: number
    fields: Record<string, number[]>
  }
}

/** The SROIE tuning receipts that have readings, and the fingerprint of those readings. */
export function tuningReadings(readings: Record<string, PageText[][]>) {
  const tuning = loadReceiptCases().filter((r) => !isHeldOut(r.issuer) && readings[r.name])
  return { tuning, fingerprint: fingerprint(tuning.map((r) => [r.name, readings[r.name]])) }
}

/** Both models from the readings (nothing is written); the held-out part is never read. */
export function trainReceiptModels(readings: Record<string, PageText[][]>): ReceiptModels {
  const { tuning, fingerprint: sroie } = tuningReadings(readings)
  console.log(`${tuning.length} tuning receipts with readings, ${GENERATED} generated`)
  const choices = generatedChoices()
  const trainedOn = { generated: fingerprint(choices), sroie_tuning_readings: sroie }
  const generated = choices.length
  for (const receipt of tuning)
    for (const pages of readings[receipt.name] as PageText[][]) {
      const choice = choiceOf(shopNameCandidates(pages), String(receipt.expected.merchant_name), true)
      if (choice) choices.push(choice)
    }
  console.log(
    `shop name: ${generated} generated and ${choices.length - generated} SROIE readings to learn from`,
  )
  const shopName = {
    trained_on: trainedOn,
    features: FEATURES,
    weights: fitChoices(choices, FEATURES.length),
  }

  // The confidence model sees the fields as the extractor reads them with the shop-name weights just fitted (the
  // module holds the file as loaded, so they are put there while the tuning receipts are read, then put back).
  const committed = { ...shopNameWeights }
  Object.assign(shopNameWeights, { features: FEATURES, weights: shopName.weights })
  try {
    const config = shippedExtractorConfig('receipt-extractor')
    const fields: FieldDefinition[] = config.fields.map((f) => ({ ...f, calibrated: false }))
    const byField = new Map<string, FieldRows>()
    for (const receipt of tuning) {
      const read = extractFromReadings(fields, readings[receipt.name] as PageText[][])
      const { issues } = validateFields(fields, read.fields)
      for (const [key, expected] of Object.entries(receipt.expected)) {
        const definition = fields.find((f) => f.key === key) as FieldDefinition
        if (!config.fields.find((f) => f.key === key)?.calibrated) continue
        const field = read.fields.find((f) => f.key === key)
        const evidence = read.evidence?.get(key)
        const entry = byField.get(key) ?? { rows: [], flaggedWrong: 0 }
        byField.set(key, entry)
        const right = field?.value != null && sameValue(definition, expected, field.value)
        const flaggedAnyway =
          issues.some((i) => i.field_key === key) || (field !== undefined && misreadName(field))
        if (!field || field.value === null || !evidence || flaggedAnyway) {
          if (!right) entry.flaggedWrong++
          continue
        }
        entry.rows.push({ x: evidence, y: right ? 1 : 0 })
      }
    }
    const width = CONFIDENCE_FEATURES.length
    const confidence = Object.fromEntries(
      [...byField].map(([key, { rows, flaggedWrong }]) => {
        const wrong = rows.filter((r) => r.y === 0).length
        console.log(
          `${key}: ${rows.length} values judged, ${wrong} wrong; ${flaggedWrong} wrong flagged anyway`,
        )
        return [key, fitLogistic(rows, width)]
      }),
    )
    const reviewBelow = reviewThreshold([...byField.values()], width)
    console.log(`review below ${reviewBelow}`)
    return {
      shopName,
      confidence: {
        trained_on: trainedOn,
        features: CONFIDENCE_FEATURES,
        review_below: reviewBelow,
        fields: confidence,
      },
    }
  } finally {
    Object.assign(shopNameWeights, committed)
  }
}

export const SHOP_NAME_WEIGHTS = path.join(EXTRACTION, 'shop-name.weights.json')
export const CONFIDENCE_WEIGHTS = path.join(EXTRACTION, 'receipt-confidence.weights.json')
export const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

function main() {
  const file = process.argv[2]
  if (!file) throw new Error('usage: npx tsx scripts/train-receipt-models.ts <readings.json>')
  const models = trainReceiptModels(JSON.parse(readFileSync(file, 'utf8')))
  writeFileSync(SHOP_NAME_WEIGHTS, asJson(models.shopName))
  writeFileSync(CONFIDENCE_WEIGHTS, asJson(models.confidence))
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
