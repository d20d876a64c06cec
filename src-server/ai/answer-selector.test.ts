import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturePath } from '../../test/helpers/fixtures'
import { answerSentences, questionShape, selectAnswer } from './answer-selector'

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

/** Written for this test: a battle, a data structure and a policy, in the style of an encyclopaedia. */
const written = [
  {
    index: 1,
    content:
      'Trace Tree Optimization\nTrace trees were proposed by Andreas Gal in 2006. A trace tree is a data structure that records the hot paths through a loop.',
  },
  {
    index: 2,
    content:
      'The battle was fought in 1066 between the army of William and King Harold II. William the Conqueror won the Battle of Hastings, and King Harold II was killed.',
  },
  { index: 3, content: 'Gift cards cannot be refunded. The head office is in Rotterdam.' },
]

describe('answer selector', () => {
  it('tells the kind of answer a question asks for, in four languages', () => {
    const type = (q: string) => questionShape(q).type
    expect(type('When was the Duchy of Normandy founded?')).toBe('date')
    expect(type('Who was the Norse leader?')).toBe('person')
    expect(type('What river originally bounded the Duchy')).toBe('place')
    expect(type('How many men did Robert Guiscard bring?')).toBe('number')
    expect(type('What is a trace tree?')).toBe('definition')
    expect(type('Can gift cards be refunded?')).toBe('yesno')
    expect(type('What is the original meaning of the word Norman?')).toBe('other')
    expect(questionShape('Wann wurde der Dom gebaut?')).toMatchObject({ type: 'date', language: 'de' })
    expect(questionShape('Qui a construit la tour ?')).toMatchObject({ type: 'person', language: 'fr' })
    expect(questionShape('¿Dónde está la Alhambra?')).toMatchObject({ type: 'place', language: 'es' })
    expect(questionShape('Was ist die Loreley?')).toMatchObject({ type: 'definition', subject: 'loreley' })
  })

  it('keeps initials and abbreviations inside their sentence', () => {
    expect(answerSentences('The study by S. Haghighat was cited. St. Peter is a church. It is old.')).toEqual(
      ['The study by S. Haghighat was cited.', 'St. Peter is a church.', 'It is old.'],
    )
  })

  it('answers "who" with the subject of the asked verb, not another name in the sentence', () => {
    expect(selectAnswer('Who won the Battle of Hastings?', written)).toMatchObject({
      span: 'William the Conqueror',
      passageIndex: 2,
    })
  })

  it('answers "who was X" with the name a copula makes X, and not with a name merely near X', () => {
    const help = [
      { index: 1, content: 'The head of the support team is Maria Keller, who answers refund requests.' },
      { index: 2, content: 'The founder of the company met Paul Weber in Berlin.' },
    ]
    expect(selectAnswer('Who is the head of the support team?', help)).toMatchObject({
      span: 'Maria Keller',
      passageIndex: 1,
    })
    expect(selectAnswer('Who was the founder of the company?', help)).toBeNull()
  })

  it('answers "what is X" with the sentence defining X, not a heading or a sentence merely naming it', () => {
    expect(selectAnswer('What is a trace tree?', written)?.sentence).toBe(
      'A trace tree is a data structure that records the hot paths through a loop.',
    )
  })

  it('answers yes or no from a sentence holding the whole question, and a place for "where"', () => {
    expect(selectAnswer('Can gift cards be refunded?', written)).toMatchObject({
      span: 'No',
      passageIndex: 3,
    })
    expect(selectAnswer('Where is the head office?', written)?.span).toBe('Rotterdam')
  })

  it('answers real questions of the article with the sentence and the typed value in it', () => {
    const founded = selectAnswer('When was the Duchy of Normandy established?', passagesWith('began in 911'))
    expect(founded).toMatchObject({ span: '911', passageIndex: 1 })
    const leader = selectAnswer(
      'Who was the leader of the raiders?',
      passagesWith('under their leader Rollo'),
    )
    expect(leader?.span).toBe('Rollo')
  })

  it('answers with a value of the asked type only: a place is no answer to "who", a person none to "where"', () => {
    const passages = [
      {
        index: 1,
        content: 'Roussel tried to found a state in Asia Minor, but he was stopped by Alexius Komnenos.',
      },
      { index: 2, content: 'A new state was founded in Anatolia in the same years.' },
    ]
    expect(selectAnswer('Who stopped Roussel?', passages)?.span).toBe('Alexius Komnenos')
    expect(selectAnswer('Where did Roussel try to found a state?', passages)?.span).toBe('Asia Minor')
    expect(selectAnswer('Where was a new state founded?', passages)?.span).toBe('Anatolia')
    // The only name of that sentence is a place: "who" gets no answer from it, nor "when" from no date.
    expect(selectAnswer('Who founded a new state?', passages)).toBeNull()
    expect(selectAnswer('When did Roussel try to found a state?', passages)).toBeNull()
  })

  it('declines when a name, a number or a role of the question is swapped for another in the sentence', () => {
    const passages = [
      {
        index: 1,
        content:
          'In 1066, Duke William of Normandy conquered England and killed King Harold at Hastings. Henry III of Castile granted the islands in 1402.',
      },
    ]
    expect(selectAnswer('When did William conquer England?', passages)?.span).toBe('1066')
    // Another doer of the same verb: the sentence is about William's conquest, not Harold's.
    expect(selectAnswer('When did King Harold conquer England?', passages)).toBeNull()
    // Henry II is not Henry III, and 1403 is not 1402.
    expect(selectAnswer('What did Henry II of Castile grant?', passages)).toBeNull()
    expect(selectAnswer('Who granted the islands in 1402?', passages)?.span).toBe('Henry III of Castile')
    expect(selectAnswer('Who granted the islands in 1403?', passages)).toBeNull()
    // "Christian spirit" against "martial spirit ... Christian piety": the words are there, the phrase is not.
    const famed = [
      { index: 1, content: 'The Normans were famed for their martial spirit and their Christian piety.' },
    ]
    expect(selectAnswer('Who was famed for their martial spirit?', famed)?.span).toBe('Normans')
    expect(selectAnswer('Who was famed for their Christian spirit?', famed)).toBeNull()
  })

  it('declines when the sentence negates what the question asks, or says its opposite', () => {
    const passages = [
      {
        index: 1,
        content: 'Norman architecture succeeded the Anglo-Saxon style in England around 1066.',
      },
    ]
    const signed = (content: string) =>
      selectAnswer('When was the treaty of Falaise signed?', [{ index: 1, content }])
    expect(signed('The treaty of Falaise was signed in 1174.')?.span).toBe('1174')
    expect(signed('The treaty of Falaise was not signed in 1174.')).toBeNull()
    expect(signed('The treaty of Falaise was never signed, though a draft dates from 1174.')).toBeNull()
    expect(selectAnswer('When did Norman architecture succeed the Anglo-Saxon style?', passages)?.span).toBe(
      '1066',
    )
    expect(selectAnswer('When did Norman architecture precede the Anglo-Saxon style?', passages)).toBeNull()
  })

  it('declines when no sentence answers the question with enough evidence', () => {
    expect(selectAnswer('What is the boiling point of mercury?', passagesWith('began in 911'))).toBeNull()
    // The type is there (a name) but not for the asked topic.
    expect(selectAnswer('Who discovered photosynthesis?', written)).toBeNull()
    // The asked date is not in the documents, though other dates are.
    expect(selectAnswer('When did William the Conqueror die?', written)).toBeNull()
    // Nothing of the asked type beyond the question's own words.
    expect(selectAnswer('Who proposed Andreas Gal?', written)).toBeNull()
  })
})
