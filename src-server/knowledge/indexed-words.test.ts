import { describe, expect, it } from 'vitest'
import { indexedWords, queryWordRanges } from './indexed-words'

const marked = (text: string, query: string) =>
  queryWordRanges(text, query).map(([start, end]) => text.slice(start, end))

describe('words as the index reads them', () => {
  it('lowercases, removes diacritics and stems as the porter unicode61 tokenizer does', () => {
    expect(indexedWords('The Normans ruled Sicília')).toEqual(['the', 'norman', 'rule', 'sicilia'])
  })

  it("marks a query's content words where they occur, by stem and without diacritics", () => {
    expect(marked('A café in Sicília; cafés ruled by Normans.', 'Which Norman cafe in Sicilia?')).toEqual([
      'café',
      'Sicília',
      'cafés',
      'Normans',
    ])
  })

  it('marks nothing for a query of function words only', () => {
    expect(marked('Who was there and what was it?', 'who was it')).toEqual([])
  })
})
