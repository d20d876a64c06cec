import type { FixedSizeParams } from './params'
import { safeCut, toChunk } from './spans'
import type { TextChunk } from './types'

/** Windows of `chunk_size` characters stepping `chunk_size - chunk_overlap`; no window splits a surrogate pair. */
export function chunkFixedSize(text: string, params: FixedSizeParams): TextChunk[] {
  const chunks: TextChunk[] = []
  const step = params.chunk_size - params.chunk_overlap
  let start = 0
  while (start < text.length) {
    let end = safeCut(text, Math.min(text.length, start + params.chunk_size))
    // chunk_size 1 on an emoji: the pair is kept whole rather than cut.
    if (end <= start) end = Math.min(text.length, start + 2)
    if (text.slice(start, end).trim().length > 0) chunks.push(toChunk(text, { start, end }))
    if (end >= text.length) break
    const next = safeCut(text, start + step)
    start = next > start ? next : start + step + 1
  }
  return chunks
}
