/**
 * An RFC 4180 CSV reader: fields separated by commas, records by CRLF (LF alone is accepted too), fields in double
 * quotes may hold commas, line breaks and doubled quotes (""). A leading UTF-8 BOM is dropped. Every record carries
 * the physical line it starts on, so errors can name it. Blank lines are skipped.
 */
export interface CsvRecord {
  line: number
  fields: string[]
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message)
  }
}

export function parseCsv(input: string): CsvRecord[] {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input
  const records: CsvRecord[] = []
  let fields: string[] = []
  let field = ''
  let line = 1
  let recordLine = 1
  let quoted = false
  // True once the current field began with a quote (it may only be followed by a separator after closing).
  let wasQuoted = false
  let i = 0

  const endField = () => {
    fields.push(field)
    field = ''
    wasQuoted = false
  }
  const endRecord = () => {
    endField()
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields })
    fields = []
  }

  while (i < text.length) {
    const char = text[i] as string
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        quoted = false
        i++
        continue
      }
      if (char === '\n') line++
      field += char
      i++
      continue
    }
    if (char === '"') {
      if (field !== '' || wasQuoted)
        throw new CsvSyntaxError(line, 'A quote appears inside an unquoted field.')
      quoted = true
      wasQuoted = true
      i++
      continue
    }
    if (char === ',') {
      endField()
      i++
      continue
    }
    if (char === '\r' || char === '\n') {
      endRecord()
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1
      line++
      recordLine = line
      continue
    }
    if (wasQuoted) throw new CsvSyntaxError(line, 'Text follows a closing quote; a separator was expected.')
    field += char
    i++
  }
  if (quoted) throw new CsvSyntaxError(recordLine, 'A quoted field is not closed before the end of the file.')
  if (field !== '' || fields.length > 0 || wasQuoted) endRecord()
  return records
}
