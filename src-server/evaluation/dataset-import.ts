import { CsvSyntaxError, parseCsv } from './csv'

/**
 * The rules of a dataset CSV: a header naming `input` and `expected` (any order, case-insensitive, optionally
 * `metadata`), then one sample per record. Every problem is collected with its line so one 422 lists them all.
 */
export interface ImportedSample {
  input: string
  expected: string
  metadata: unknown
}

export interface ImportProblem {
  line: number
  message: string
}

export type ImportOutcome = { ok: true; samples: ImportedSample[] } | { ok: false; problems: ImportProblem[] }

const REQUIRED = ['input', 'expected'] as const

export function readDatasetCsv(bytes: Buffer): ImportOutcome {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return { ok: false, problems: [{ line: 1, message: 'The file is not valid UTF-8 text.' }] }
  }
  let records: ReturnType<typeof parseCsv>
  try {
    records = parseCsv(text)
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      return { ok: false, problems: [{ line: error.line, message: error.message }] }
    throw error
  }
  const [header, ...rows] = records
  if (!header)
    return { ok: false, problems: [{ line: 1, message: 'The file is empty; a header is required.' }] }
  const names = header.fields.map((name) => name.trim().toLowerCase())
  const missing = REQUIRED.filter((name) => !names.includes(name))
  if (missing.length > 0)
    return {
      ok: false,
      problems: [{ line: header.line, message: `The header lacks the column(s): ${missing.join(', ')}.` }],
    }
  if (rows.length === 0)
    return { ok: false, problems: [{ line: header.line, message: 'The file holds no samples.' }] }

  const column = (name: string) => names.indexOf(name)
  const inputAt = column('input')
  const expectedAt = column('expected')
  const metadataAt = column('metadata')
  const problems: ImportProblem[] = []
  const samples: ImportedSample[] = []
  for (const row of rows) {
    if (row.fields.length !== names.length) {
      problems.push({
        line: row.line,
        message: `The record has ${row.fields.length} field(s); the header has ${names.length}.`,
      })
      continue
    }
    const input = row.fields[inputAt] ?? ''
    const expected = row.fields[expectedAt] ?? ''
    const empty = [input.trim() === '' && 'input', expected.trim() === '' && 'expected'].filter(Boolean)
    if (empty.length > 0) {
      problems.push({ line: row.line, message: `Empty required value(s): ${empty.join(', ')}.` })
      continue
    }
    samples.push({
      input,
      expected,
      metadata: metadataAt >= 0 ? readMetadata(row.fields[metadataAt] ?? '') : null,
    })
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, samples }
}

/** A JSON object stays an object; any other text is kept as the string it is; an empty cell is null. */
function readMetadata(cell: string): unknown {
  if (cell.trim() === '') return null
  try {
    const value = JSON.parse(cell) as unknown
    if (value && typeof value === 'object' && !Array.isArray(value)) return value
  } catch {
    // Not JSON: kept as text.
  }
  return cell
}
