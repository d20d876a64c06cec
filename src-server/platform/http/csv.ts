/**
 * CSV (RFC 4180) that a spreadsheet opens as data: every cell is quoted (an absent value as `""`), and text a
 * spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed
 * with `'`, so an exported value such as `=HYPERLINK(...)` is shown, never run (OWASP "CSV injection"). Numbers
 * are written by the server, never as a formula, and keep their sign (a credit note's negative total).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '""'
  const text =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/u.test(text) ? `'${text}` : text
  return `"${safe.replaceAll('"', '""')}"`
}

/** A header row and data rows as one CSV text, CRLF line ends, with a BOM so spreadsheets read it as UTF-8. */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','))
  return `\uFEFF${lines.join('\r\n')}\r\n`
}
