import type { SentenceParams } from './params'
import { sentenceSpans, toChunk } from './spans'
import type { TextChunk } from './types'

/** At most `max_sentences` sentences per chunk; consecutive chunks share `chunk_overlap` sentences. */
export function chunkSentences(text: string, params: SentenceParams): TextChunk[] {
  const sentences = sentenceSpans(text)
  const chunks: TextChunk[] = []
  const step = params.max_sentences - params.chunk_overlap
  for (let first = 0; first < sentences.length; first += step) {
    const last = Math.min(sentences.length, first + params.max_sentences) - 1
    const start = (sentences[first] as { start: number }).start
    const end = (sentences[last] as { end: number }).end
    chunks.push(toChunk(text, { start, end }))
    if (last === sentences.length - 1) break
  }
  return chunks
}
