import type { Span, TextChunk } from './types'

/**
 * Helpers every strategy shares: sentence segmentation, trimming a span to its text, and safe cut points
 * that never split a UTF-16 surrogate pair.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' })

/** Sentence spans of `text[start, end)` (Intl.Segmenter), without whitespace-only spans. */
export function sentenceSpans(text: string, start = 0, end = text.length): Span[] {
  const spans: Span[] = []
  for (const segment of segmenter.segment(text.slice(start, end))) {
    const span = trimSpan(text, {
      start: start + segment.index,
      end: start + segment.index + segment.segment.length,
    })
    if (span) spans.push(span)
  }
  return spans
}

/** The span without leading/trailing whitespace, or null when nothing is left. */
export function trimSpan(text: string, span: Span): Span | null {
  let { start, end } = span
  while (start < end && /\s/.test(text[start] as string)) start++
  while (end > start && /\s/.test(text[end - 1] as string)) end--
  return end > start ? { start, end } : null
}

export function toChunk(text: string, span: Span): TextChunk {
  return { content: text.slice(span.start, span.end), char_start: span.start, char_end: span.end }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** Moves a cut point left when it would fall between the two halves of a surrogate pair. */
export function safeCut(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at
  return isLowSurrogate(text.charCodeAt(at)) && isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at
}

/** Cuts a span longer than `size` into consecutive pieces of at most `size` (pair-safe; a lone pair may exceed 1). */
export function hardSplit(text: string, span: Span, size: number): Span[] {
  const pieces: Span[] = []
  let start = span.start
  while (start < span.end) {
    let end = Math.min(span.end, start + size)
    const cut = safeCut(text, end)
    end = cut > start ? cut : Math.min(span.end, start + 2)
    const trimmed = trimSpan(text, { start, end })
    if (trimmed) pieces.push(trimmed)
    start = end
  }
  return pieces
}

/**
 * Packs consecutive spans into chunks whose extent (first start to last end) stays within `size`; a span that
 * alone is longer than `size` must be split by the caller beforehand.
 */
export function packSpans(spans: Span[], size: number): Span[] {
  const packed: Span[] = []
  let current: Span | null = null
  for (const span of spans) {
    if (current && span.end - current.start <= size) current = { start: current.start, end: span.end }
    else {
      if (current) packed.push(current)
      current = { ...span }
    }
  }
  if (current) packed.push(current)
  return packed
}
