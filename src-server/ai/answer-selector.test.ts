import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturePath } from '../../test/helpers/fixtures'
import { answerSentences, answerType, selectAnswer } from './answer-selector'

/** The SQuAD 2.0 "Normans" article of the development set, paragraph by paragraph. */
const paragraphs = (
  JSON.parse(readFileSync(fixturePath('retrieval', 'squad2-dev-normans.json'), 'utf8')) as {
    data: { paragraphs: { context: string }[] }[]
  }
).data[0]?.paragraphs.map((p) => p.context) as string[]

const passagesWith = (...needles: string[]) =>
  needles.map((needle, i) => ({
    index: i + 1,
    content: paragraphs.find((p) => p.includes(needle)) ?? '',
  }))

describe('answer selector', () => {
  it('tells the kind of answer a question asks for', () => {
    expect(answerType('When was the Duchy of Normandy founded?')).toBe('date')
    expect(answerType('Who was the Norse leader?')).toBe('person')
    expect(answerType('What river originally bounded the Duchy')).toBe('place')
    expect(answerType('How many men did Robert Guiscard bring?')).toBe('number')
    expect(answerType('What is the original meaning of the word Norman?')).toBe('other')
  })

  it('keeps initials and abbreviations inside their sentence', () => {
    expect(answerSentences('The study by S. Haghighat was cited. St. Peter is a church. It is old.')).toEqual(
      ['The study by S. Haghighat was cited.', 'St. Peter is a church.', 'It is old.'],
    )
  })

  it('answers real questions of the article with the sentence and the typed value in it', () => {
    const founded = selectAnswer('When was the Duchy of Normandy founded?', passagesWith('began in 911'))
    expect(founded).toMatchObject({ span: '911', passageIndex: 1 })
    expect(founded?.sentence).toContain('began in 911 as a fiefdom')

    const treaty = selectAnswer(
      'Who did Rollo sign the treaty of Saint-Clair-sur-Epte with?',
      passagesWith('Normans were the people', 'began in 911'),
    )
    expect(treaty?.passageIndex).toBe(2)
    expect(treaty?.span).toContain('Charles III')

    const leader = selectAnswer('Who was the Norse leader?', passagesWith('under their leader Rollo'))
    expect(leader?.span).toBe('Rollo')
  })

  it('declines when no sentence covers the question', () => {
    expect(selectAnswer('What is the boiling point of mercury?', passagesWith('began in 911'))).toBeNull()
  })
})
