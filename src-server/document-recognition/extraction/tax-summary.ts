import type { Line } from './layout'

/** The words for a tax in EN, DE, FR and NL (and the Commonwealth's GST/SST). */
const TAX_WORD = /\b(?:gst|sst|vat|tax|mwst|ust|tva|btw)\b/iu
/** Headings of a table that breaks the amounts down by tax rate. */
const SUMMARY_WORD =
  /(?<!\p{L})(?:summary|analysis|breakdown|übersicht|zusammenfassung|r[ée]capitulatif|overzicht)(?!\p{L})/iu
/** The table's last row sums its columns. */
const TOTAL_ROW = /\b(?:total|totals|summe|gesamt|totaal)\b/iu
/** Rows a summary table holds at most: one per tax rate and a total. */
const MAX_ROWS = 6
/** A gap taller than this many line heights ends the table. */
const MAX_GAP = 2

const isHeading = (line: Line, next: Line | undefined) =>
  SUMMARY_WORD.test(line.text) && (TAX_WORD.test(line.text) || (next ? TAX_WORD.test(next.text) : false))

/**
 * Indexes of the lines (sorted top to bottom) that belong to a tax summary table ("GST Summary / Tax Code % Amount
 * Tax / SR 6% 106.10 6.37 / Total: 106.10 6.37"): its rows repeat the net and tax of each rate by column, and its
 * "Total" row is the sum of a column, never the document's total, so no label in it names a field's value.
 */
export function taxSummaryLines(lines: Line[]): Set<number> {
  const inside = new Set<number>()
  lines.forEach((line, index) => {
    if (!isHeading(line, lines[index + 1])) return
    inside.add(index)
    let bottom = line.bbox[3]
    for (let j = index + 1; j < Math.min(lines.length, index + 1 + MAX_ROWS); j++) {
      const row = lines[j] as Line
      if (row.bbox[1] - bottom > (line.bbox[3] - line.bbox[1]) * MAX_GAP) break
      inside.add(j)
      if (TOTAL_ROW.test(row.text)) break
      bottom = Math.max(bottom, row.bbox[3])
    }
  })
  return inside
}
