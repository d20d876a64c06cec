import type { RecursiveParams } from './params'
import { safeCut, toChunk, trimSpan } from './spans'
import type { Span, TextChunk } from './types'

/**
 * Splits by the first separator present in the text; pieces still longer than `chunk_size` are split again with
 * the following separators (`""` means characters). The pieces are then merged back into chunks of at most
 * `chunk_size`, each starting with up to `chunk_overlap` characters of whole pieces from the previous chunk.
 */
export function chunkRecursive(text: string, params: RecursiveParams): TextChunk[] {
  // Below the last separator text is cut into runs of this many characters, not single ones: a 50 MB file
  // without spaces must not become 50 million pieces. Runs are small enough to keep the overlap's granularity.
  const run = Math.max(
    1,
    Math.floor(Math.min(params.chunk_size, params.chunk_overlap || params.chunk_size) / 4),
  )
  const pieces = splitRecursive(
    text,
    { start: 0, end: text.length },
    params.separators,
    params.chunk_size,
    run,
  )
  return mergePieces(pieces, params.chunk_size, params.chunk_overlap)
    .map((span) => trimSpan(text, span))
    .filter((span): span is Span => span !== null)
    .map((span) => toChunk(text, span))
}

function splitRecursive(text: string, span: Span, separators: string[], size: number, run: number): Span[] {
  if (span.end - span.start <= size) return [span]
  const segment = text.slice(span.start, span.end)
  const index = separators.findIndex((separator) => separator === '' || segment.includes(separator))
  if (index === -1) return characterRuns(text, span, run)
  const separator = separators[index] as string
  if (separator === '') return characterRuns(text, span, run)
  const rest = separators.slice(index + 1)
  const pieces: Span[] = []
  let start = span.start
  // The separator stays at the end of the piece before it, so pieces tile the text without gaps.
  for (
    let at = segment.indexOf(separator);
    at !== -1;
    at = segment.indexOf(separator, at + separator.length)
  ) {
    const end = span.start + at + separator.length
    pieces.push(...splitRecursive(text, { start, end }, rest, size, run))
    start = end
  }
  if (start < span.end) pieces.push(...splitRecursive(text, { start, end: span.end }, rest, size, run))
  return pieces
}

/** Consecutive runs of `run` characters (a surrogate pair stays together). */
function characterRuns(text: string, span: Span, run: number): Span[] {
  const pieces: Span[] = []
  for (let start = span.start; start < span.end; ) {
    let end = safeCut(text, Math.min(span.end, start + run))
    if (end <= start) end = start + 2
    end = Math.min(end, span.end)
    pieces.push({ start, end })
    start = end
  }
  return pieces
}

function mergePieces(pieces: Span[], size: number, overlap: number): Span[] {
  const merged: Span[] = []
  let first = 0
  while (first < pieces.length) {
    const start = (pieces[first] as Span).start
    let last = first
    while (last + 1 < pieces.length && (pieces[last + 1] as Span).end - start <= size) last++
    const end = (pieces[last] as Span).end
    merged.push({ start, end })
    if (last === pieces.length - 1) break
    let next = last + 1
    const following = (pieces[last + 1] as Span).end
    // Overlap only with whole pieces, and only as much as still leaves room for the next new piece.
    while (
      next - 1 > first &&
      end - (pieces[next - 1] as Span).start <= overlap &&
      following - (pieces[next - 1] as Span).start <= size
    )
      next--
    first = next
  }
  return merged
}
