/**
 * CSV (RFC 4180) that a spreadsheet opens as data: every cell is quoted, and a cell a spreadsheet would read as a
 * formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`, so an exported value
 * such as `=HYPERLINK(...)` is shown, never run (OWASP "CSV injection").
 */
export function csvCell(value: unknown): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)
  const safe = /^[=+\-@\t\r]/u.test(text) ? `'${text}` : text
  return `"${safe.replaceAll('"', '""')}"`
}

/** A header row and data rows as one CSV text, CRLF line ends, with a BOM so spreadsheets read it as UTF-8. */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','))
  return `\uFEFF${lines.join('\r\n')}\r\n`
}
