import { builtinEmbedMany } from '../../ai/worker-tasks'
import { chunkFixedSize } from './fixed-size'
import { chunkParagraphs } from './paragraph'
import type {
  ChunkingParams,
  ChunkingStrategy,
  FixedSizeParams,
  ParagraphParams,
  RecursiveParams,
  SemanticParams,
  SentenceParams,
} from './params'
import { chunkRecursive } from './recursive'
import { chunkSemantic } from './semantic'
import { chunkSentences } from './sentence'
import type { TextChunk } from './types'

export * from './params'
export type { TextChunk } from './types'

/** Chunks one text with a strategy whose params were normalised by `normalizeChunkingParams`. */
export function chunkText(text: string, strategy: ChunkingStrategy, params: ChunkingParams): TextChunk[] {
  switch (strategy) {
    case 'fixed_size':
      return chunkFixedSize(text, params as FixedSizeParams)
    case 'sentence':
      return chunkSentences(text, params as SentenceParams)
    case 'paragraph':
      return chunkParagraphs(text, params as ParagraphParams)
    case 'semantic':
      return chunkSemantic(text, params as SemanticParams, (texts) => builtinEmbedMany(texts))
    case 'recursive':
      return chunkRecursive(text, params as RecursiveParams)
  }
}

export interface DocumentChunk extends TextChunk {
  ordinal: number
  page_number: number | null
}

/** Pages are joined with this in the document's text, so chunk offsets are offsets into that whole text. */
export const PAGE_JOINER = '\n\n'

/**
 * Chunks a parsed document. Paged documents (PDF) are chunked page by page, so no chunk spans two pages and
 * each names the page it came from.
 */
export function chunkDocument(
  document: { pages: string[]; paged: boolean },
  strategy: ChunkingStrategy,
  params: ChunkingParams,
): DocumentChunk[] {
  const chunks: DocumentChunk[] = []
  let offset = 0
  document.pages.forEach((page, index) => {
    for (const chunk of chunkText(page, strategy, params))
      chunks.push({
        ...chunk,
        char_start: chunk.char_start + offset,
        char_end: chunk.char_end + offset,
        ordinal: chunks.length,
        page_number: document.paged ? index + 1 : null,
      })
    offset += page.length + PAGE_JOINER.length
  })
  return chunks
}
