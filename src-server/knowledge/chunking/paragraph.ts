import type { ParagraphParams } from './params'
import { hardSplit, packSpans, sentenceSpans, toChunk, trimSpan } from './spans'
import type { Span, TextChunk } from './types'

/** Paragraphs (blank-line separated) packed up to `target_size`; a longer paragraph is split by sentences. */
export function chunkParagraphs(text: string, params: ParagraphParams): TextChunk[] {
  const units: Span[] = []
  for (const paragraph of paragraphSpans(text)) {
    if (paragraph.end - paragraph.start <= params.target_size) units.push(paragraph)
    else units.push(...splitLongSpan(text, paragraph, params.target_size))
  }
  return packSpans(units, params.target_size).map((span) => toChunk(text, span))
}

export function paragraphSpans(text: string): Span[] {
  const spans: Span[] = []
  const separator = /\n[ \t\r]*\n/g
  let start = 0
  for (const match of text.matchAll(separator)) {
    const span = trimSpan(text, { start, end: match.index })
    if (span) spans.push(span)
    start = match.index + match[0].length
  }
  const last = trimSpan(text, { start, end: text.length })
  if (last) spans.push(last)
  return spans
}

/** Sentences of a span, each longer than `size` cut into `size` pieces, packed up to `size`. */
export function splitLongSpan(text: string, span: Span, size: number): Span[] {
  const pieces = sentenceSpans(text, span.start, span.end).flatMap((sentence) =>
    sentence.end - sentence.start <= size ? [sentence] : hardSplit(text, sentence, size),
  )
  return packSpans(pieces, size)
}
