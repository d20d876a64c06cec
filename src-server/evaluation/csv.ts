import { CsvError, type Info, parse } from 'csv-parse/sync'

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
  let parsed: { record: string[]; info: Info }[]
  try {
    // The typings do not follow the `info` option, which wraps each record with its parse state.
    parsed = parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as typeof parsed
  } catch (error) {
    // Every csv-parse refusal is the file's fault (a 422 naming its line), never the server's.
    if (error instanceof CsvError)
      throw new CsvSyntaxError(Number(error.lines), SYNTAX_MESSAGES[error.code] ?? error.message)
    throw error
  }
  // csv-parse's `info.lines` counts a CRLF inside a quoted field twice, so a record's first line is counted here
  // from byte offsets instead: a record starts after the previous one's end and any blank lines skipped between.
  const records: CsvRecord[] = []
  let at = 0
  let line = 1
  for (const { record, info } of parsed) {
    for (; bytes[at] === CR || bytes[at] === LF; at++) if (lineBreakAt(bytes, at)) line++
    records.push({ line, fields: record })
    for (; at < info.bytes; at++) if (lineBreakAt(bytes, at)) line++
  }
  return records
}

/** A CRLF pair counts once: at its LF. */
function lineBreakAt(bytes: Buffer, at: number): boolean {
  return bytes[at] === LF || (bytes[at] === CR && bytes[at + 1] !== LF)
}
