import { CsvError, parse } from 'csv-parse/sync'

/**
 * RFC 4180 CSV through csv-parse: fields in double quotes may hold commas, line breaks and doubled quotes; a leading
 * UTF-8 BOM is dropped; blank lines are skipped. Every record carries the physical line it starts on, so errors can
 * name it.
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

/** Our wording for csv-parse's syntax errors; the library's own messages speak of its options. */
const SYNTAX_MESSAGES: Record<string, string> = {
  INVALID_OPENING_QUOTE: 'A quote appears inside an unquoted field.',
  CSV_INVALID_CLOSING_QUOTE: 'Text follows a closing quote; a separator was expected.',
  CSV_QUOTE_NOT_CLOSED: 'A quoted field is not closed before the end of the file.',
}

const CR = 0x0d
const LF = 0x0a

export function parseCsv(input: string): CsvRecord[] {
  const bytes = Buffer.from(input, 'utf8')
  const fields: string[][] = []
  /** Byte offset where each record ends. */
  const ends: number[] = []
  try {
    parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      on_record: (record: string[], context) => {
        fields.push(record)
        ends.push(context.bytes)
        return null
      },
    })
  } catch (error) {
    // Every csv-parse refusal is the file's fault (a 422 naming its line), never the server's. The line named is
    // where the refused record starts: csv-parse's own count is where it gave up, the file's last line for an
    // unclosed quote.
    if (error instanceof CsvError)
      throw new CsvSyntaxError(
        startLines(bytes, ends)[ends.length] ?? 1,
        SYNTAX_MESSAGES[error.code] ?? error.message,
      )
    throw error
  }
  const lines = startLines(bytes, ends)
  return fields.map((record, index) => ({ line: lines[index] ?? 1, fields: record }))
}

/**
 * The physical line each record starts on, from the offsets where records end, and that of the record after the
 * last: a record starts after the previous one's end and any blank lines skipped between. Counted from bytes
 * because csv-parse's own line count takes a CRLF inside a quoted field for two lines.
 */
function startLines(bytes: Buffer, ends: number[]): number[] {
  const lines: number[] = []
  let at = 0
  let line = 1
  for (const end of [...ends, bytes.length]) {
    for (; bytes[at] === CR || bytes[at] === LF; at++) if (lineBreakAt(bytes, at)) line++
    lines.push(line)
    for (; at < end; at++) if (lineBreakAt(bytes, at)) line++
  }
  return lines
}

/** A CRLF pair counts once: at its LF. */
function lineBreakAt(bytes: Buffer, at: number): boolean {
  return bytes[at] === LF || (bytes[at] === CR && bytes[at + 1] !== LF)
}
