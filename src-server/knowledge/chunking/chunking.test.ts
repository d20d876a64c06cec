import { describe, expect, it } from 'vitest'
import { builtinEmbedMany } from '../../ai'
import { chunkFixedSize } from './fixed-size'
import { chunkDocument, chunkText } from './index'
import { chunkParagraphs } from './paragraph'
import { CHUNKING_STRATEGIES, DEFAULT_CHUNKING_PARAMS, normalizeChunkingParams } from './params'
import { chunkRecursive } from './recursive'
import { chunkSemantic } from './semantic'
import { chunkSentences } from './sentence'
import type { TextChunk } from './types'

const embed = (texts: string[]) => builtinEmbedMany(texts)

/** Every chunk's content is exactly the text at its offsets, and no offset splits a surrogate pair. */
function expectFaithful(text: string, chunks: TextChunk[]) {
  for (const chunk of chunks) {
    expect(text.slice(chunk.char_start, chunk.char_end)).toBe(chunk.content)
    expect(chunk.content.length).toBeGreaterThan(0)
    expect(chunk.content).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/)
  }
}

const CJK = '東京は日本の首都です。人口は多いです。'.repeat(200)
const EMOJI = '😀🎉👍🏽'.repeat(300)
const HUGE_PARAGRAPH = Array.from(
  { length: 400 },
  (_, i) => `Sentence number ${i} talks about topic ${i % 7}.`,
).join(' ')

describe('every strategy', () => {
  it.each(CHUNKING_STRATEGIES)('%s yields no chunks for empty or blank text', (strategy) => {
    expect(chunkText('', strategy, DEFAULT_CHUNKING_PARAMS[strategy])).toEqual([])
    expect(chunkText(' \n\n \t ', strategy, DEFAULT_CHUNKING_PARAMS[strategy])).toEqual([])
  })

  it.each(CHUNKING_STRATEGIES)(
    '%s keeps offsets faithful on CJK, emoji and one huge paragraph',
    (strategy) => {
      for (const text of [CJK, EMOJI, HUGE_PARAGRAPH]) {
        const chunks = chunkText(text, strategy, DEFAULT_CHUNKING_PARAMS[strategy])
        expect(chunks.length).toBeGreaterThan(0)
        expectFaithful(text, chunks)
      }
    },
  )

  it('never lets a chunk of a paged document span two pages', () => {
    const pages = ['Page one text. '.repeat(50), '', 'Page three text. '.repeat(50)]
    const joined = pages.join('\n\n')
    for (const strategy of CHUNKING_STRATEGIES) {
      const chunks = chunkDocument({ pages, paged: true }, strategy, DEFAULT_CHUNKING_PARAMS[strategy])
      expect(new Set(chunks.map((chunk) => chunk.page_number))).toEqual(new Set([1, 3]))
      for (const chunk of chunks) {
        expect(joined.slice(chunk.char_start, chunk.char_end)).toBe(chunk.content)
        expect(chunk.content).toContain(chunk.page_number === 1 ? 'Page one' : 'Page three')
        expect(chunk.content).not.toMatch(chunk.page_number === 1 ? /three/ : /one/)
      }
      expect(chunks.map((chunk) => chunk.ordinal)).toEqual(chunks.map((_, i) => i))
    }
  })
})

describe('fixed_size', () => {
  it('steps chunk_size - chunk_overlap, so neighbours share exactly the overlap', () => {
    const text = 'abcdefghij'.repeat(3)
    const chunks = chunkFixedSize(text, { chunk_size: 10, chunk_overlap: 4 })
    expect(chunks.map((chunk) => [chunk.char_start, chunk.char_end])).toEqual([
      [0, 10],
      [6, 16],
      [12, 22],
      [18, 28],
      [24, 30],
    ])
  })

  it('ends with the window that reaches the end, without a trailing sliver', () => {
    expect(chunkFixedSize('0123456789', { chunk_size: 10, chunk_overlap: 2 })).toHaveLength(1)
    expect(chunkFixedSize('01234567890', { chunk_size: 10, chunk_overlap: 0 }).map((c) => c.content)).toEqual(
      ['0123456789', '0'],
    )
  })

  it('moves a cut that would split a surrogate pair, even with chunk_size 1', () => {
    const text = 'a😀b😀c'
    const chunks = chunkFixedSize(text, { chunk_size: 2, chunk_overlap: 0 })
    expectFaithful(text, chunks)
    expect(chunks.map((chunk) => chunk.content).join('')).toBe(text)
    const single = chunkFixedSize('😀😀', { chunk_size: 1, chunk_overlap: 0 })
    expect(single.map((chunk) => chunk.content)).toEqual(['😀', '😀'])
  })
})

describe('sentence', () => {
  const text = 'One. Two. Three. Four. Five.'

  it('puts at most max_sentences sentences in a chunk', () => {
    expect(chunkSentences(text, { max_sentences: 2, chunk_overlap: 0 }).map((c) => c.content)).toEqual([
      'One. Two.',
      'Three. Four.',
      'Five.',
    ])
  })

  it('repeats chunk_overlap sentences at the start of the next chunk', () => {
    expect(chunkSentences(text, { max_sentences: 3, chunk_overlap: 1 }).map((c) => c.content)).toEqual([
      'One. Two. Three.',
      'Three. Four. Five.',
    ])
  })
})

describe('paragraph', () => {
  it('packs whole paragraphs up to target_size', () => {
    const text = 'aaaa\n\nbbbb\n\ncccc'
    expect(chunkParagraphs(text, { target_size: 10 }).map((c) => c.content)).toEqual(['aaaa\n\nbbbb', 'cccc'])
    expect(chunkParagraphs(text, { target_size: 16 }).map((c) => c.content)).toEqual([text])
  })

  it('splits a paragraph longer than target_size by sentences', () => {
    const text = 'First sentence here. Second sentence here. Third sentence here.'
    const chunks = chunkParagraphs(text, { target_size: 45 })
    expect(chunks.map((c) => c.content)).toEqual([
      'First sentence here. Second sentence here.',
      'Third sentence here.',
    ])
    for (const chunk of chunkParagraphs(HUGE_PARAGRAPH, { target_size: 200 }))
      expect(chunk.content.length).toBeLessThanOrEqual(200)
  })
})

describe('semantic', () => {
  it('splits where adjacent sentences stop being similar', () => {
    const text =
      'Cats purr and cats sleep. Cats chase mice and cats nap. Rockets launch into orbit. Rockets burn fuel to reach orbit.'
    const chunks = chunkSemantic(text, { target_size: 1000, threshold: 0.2 }, embed)
    expect(chunks.map((c) => c.content)).toEqual([
      'Cats purr and cats sleep. Cats chase mice and cats nap.',
      'Rockets launch into orbit. Rockets burn fuel to reach orbit.',
    ])
  })

  it('caps a chunk at target_size even when every sentence is alike', () => {
    const text = 'Same words again. '.repeat(100)
    const chunks = chunkSemantic(text, { target_size: 100, threshold: -1 }, embed)
    expect(chunks.length).toBeGreaterThan(1)
    for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(100)
  })
})

describe('recursive', () => {
  it('prefers the first separator: paragraphs stay whole when they fit', () => {
    const text = `${'a'.repeat(40)}\n\n${'b'.repeat(40)}`
    const chunks = chunkRecursive(text, { chunk_size: 50, chunk_overlap: 0, separators: ['\n\n', ' ', ''] })
    expect(chunks.map((c) => c.content)).toEqual(['a'.repeat(40), 'b'.repeat(40)])
  })

  it('falls back to later separators and overlaps with whole pieces', () => {
    const text = 'one two three four five six seven eight nine ten'
    const chunks = chunkRecursive(text, { chunk_size: 15, chunk_overlap: 6, separators: ['\n\n', ' ', ''] })
    expectFaithful(text, chunks)
    for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(15)
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1] as TextChunk
      const current = chunks[i] as TextChunk
      expect(current.char_start).toBeLessThan(previous.char_end)
      expect(previous.char_end - current.char_start).toBeLessThanOrEqual(6)
    }
    expect(chunks.map((c) => c.content).join(' ')).toContain('ten')
  })

  it('cuts a huge text without any separator into bounded chunks with the overlap kept', () => {
    const text = 'x'.repeat(2_000_000)
    const chunks = chunkRecursive(text, {
      chunk_size: 1000,
      chunk_overlap: 200,
      separators: ['\n\n', ' ', ''],
    })
    expect(chunks).toHaveLength(2500)
    expect(chunks[1]).toMatchObject({ char_start: 800, char_end: 1800 })
    expect((chunks.at(-1) as TextChunk).char_end).toBe(text.length)
  })

  it('splits text without any separator into characters, keeping emoji whole', () => {
    const chunks = chunkRecursive(EMOJI, { chunk_size: 9, chunk_overlap: 2, separators: ['\n\n', ' ', ''] })
    expectFaithful(EMOJI, chunks)
    for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(9)
    expect((chunks.at(-1) as TextChunk).char_end).toBe(EMOJI.length)
  })
})

describe('parameter validation', () => {
  it('fills defaults and rejects unknown keys, sizes below 1 and overlap >= size', () => {
    expect(normalizeChunkingParams('fixed_size', {})).toEqual({
      ok: true,
      params: { chunk_size: 1000, chunk_overlap: 200 },
    })
    // A small size given alone gets a proportionate default overlap rather than an invalid 200.
    expect(normalizeChunkingParams('recursive', { chunk_size: 100 })).toMatchObject({
      ok: true,
      params: { chunk_size: 100, chunk_overlap: 20 },
    })
    const tooBig = normalizeChunkingParams('recursive', { chunk_size: 150, chunk_overlap: 150 })
    expect(tooBig).toMatchObject({ ok: false, issues: [{ field: 'chunking_params.chunk_overlap' }] })
    expect(normalizeChunkingParams('sentence', { bogus: 1 })).toMatchObject({
      ok: false,
      issues: [{ field: 'chunking_params.bogus' }],
    })
    expect(normalizeChunkingParams('paragraph', { target_size: 0 }).ok).toBe(false)
    expect(normalizeChunkingParams('recursive', { separators: [] }).ok).toBe(false)
  })
})
