import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturePath } from '../../test/helpers/fixtures'
import { bestSentenceScore, queryStems, RERANK_DEPTH, rerankBySentences } from './sentence-rerank'

/** The SQuAD "Normans" article's paragraphs with their answerable questions (shared fixtures). */
const paragraphs = (
  JSON.parse(readFileSync(fixturePath('retrieval', 'squad2-dev-normans.json'), 'utf8')) as {
    data: { paragraphs: { context: string; qas: { question: string }[] }[] }[]
  }
).data.flatMap((article) => article.paragraphs)

const everyWordAsRare = () => 1

describe('sentence reranking', () => {
  it("keeps a question's content words by stem, leaving function words out", () => {
    expect([...queryStems('From which countries did the Norse originate?', everyWordAsRare).keys()]).toEqual([
      'countri',
      'nors',
      'origin',
    ])
  })

  it('scores a paragraph by its one sentence holding most of the question, matched by stem', () => {
    const stems = queryStems('Who was the leader of the Norse raiders?', (word) =>
      word === 'leader' ? 2 : 1,
    )
    // Paragraph 0's second sentence: "They were descended from Norse (...) raiders and pirates (...) who, under
    // their leader Rollo, ...": all three words in one sentence.
    expect(bestSentenceScore(paragraphs[0]?.context as string, stems)).toBe(4)
    // Paragraph 1 speaks of Normandy's dukes: no sentence of it holds these words.
    expect(bestSentenceScore(paragraphs[1]?.context as string, stems)).toBe(0)
  })

  it('lifts the candidate whose sentence answers the question over an equal fused score, within the depth', () => {
    const question = paragraphs[3]?.qas[1]?.question as string // Who did Rollo sign the treaty of ... with?
    const candidates = paragraphs.slice(0, RERANK_DEPTH + 5).map((paragraph, i) => ({
      id: i,
      content: paragraph.context,
      score: i < RERANK_DEPTH ? 0.01 : 0.001,
    }))
    const reranked = rerankBySentences(candidates, queryStems(question, everyWordAsRare), 1 / 61, 0.1).sort(
      (a, b) => b.score - a.score,
    )
    expect(reranked[0]?.id).toBe(3)
    // Candidates below the depth keep their fused score; the best sentence adds the weight times a first rank.
    expect(reranked.filter((hit) => hit.id >= RERANK_DEPTH).every((hit) => hit.score === 0.001)).toBe(true)
    expect(Math.max(...reranked.map((hit) => hit.score))).toBeCloseTo(0.01 + 0.1 / 61)
  })

  it('leaves the fused order alone when the query has no content word', () => {
    const candidates = paragraphs
      .slice(0, 3)
      .map((paragraph, i) => ({ content: paragraph.context, score: i }))
    expect(rerankBySentences(candidates, queryStems('who was it?', everyWordAsRare), 1 / 61, 1)).toEqual(
      candidates,
    )
  })
})
