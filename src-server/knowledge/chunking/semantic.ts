import type { SemanticParams } from './params'
import { hardSplit, packSpans, sentenceSpans, toChunk } from './spans'
import type { Span, TextChunk } from './types'

/** Embeds texts into L2-normalised vectors (so a dot product is the cosine). */
export type SyncEmbed = (texts: string[]) => Float32Array[]

/**
 * Splits between adjacent sentences whose embedding similarity falls below `threshold`; each topical group is
 * then packed into chunks of at most `target_size` characters.
 */
export function chunkSemantic(text: string, params: SemanticParams, embed: SyncEmbed): TextChunk[] {
  const sentences = sentenceSpans(text).flatMap((sentence) =>
    sentence.end - sentence.start <= params.target_size
      ? [sentence]
      : hardSplit(text, sentence, params.target_size),
  )
  if (sentences.length === 0) return []
  const vectors = embed(sentences.map((span) => text.slice(span.start, span.end)))
  const groups: Span[][] = [[sentences[0] as Span]]
  for (let i = 1; i < sentences.length; i++) {
    const similarity = dot(vectors[i - 1] as Float32Array, vectors[i] as Float32Array)
    if (similarity < params.threshold) groups.push([])
    groups[groups.length - 1]?.push(sentences[i] as Span)
  }
  return groups.flatMap((group) => packSpans(group, params.target_size)).map((span) => toChunk(text, span))
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number)
  return sum
}
