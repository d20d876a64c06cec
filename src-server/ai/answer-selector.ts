/**
 * The builtin extractive answer: pick the retrieved sentence that answers the question's type (a person for
 * "who", a date for "when", a place for "where", a number for "how many"), next to the question's content words,
 * and say plainly when no retrieved sentence does. Plain English lexical rules; no model.
 */
import { contentTerms } from './text-overlap'

export type AnswerType = 'person' | 'date' | 'place' | 'number' | 'name' | 'other'

/** How a reply that answers nothing begins, so clients and evaluations can tell it apart. */
export const NO_ANSWER_PREFIX = 'None of the retrieved passages answers this'

/** Below this share of the question's (idf-weighted) content found in a sentence, the sentence does not answer. */
const MIN_COVERAGE = 0.2
/** A sentence holding an entity of the asked type, beyond the question's own words, is the likelier answer. */
const HAS_TYPE = 1.5
const LACKS_TYPE = 0.6

const WORD_NUMBERS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|several'
const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december'

const ENTITY_PATTERNS: Record<Exclude<AnswerType, 'other'>, RegExp> = {
  date: new RegExp(
    String.raw`\b(?:\d{1,2}(?:st|nd|rd|th)? (?:${MONTHS})(?: \d{3,4})?|(?:${MONTHS}) \d{1,2}(?:st|nd|rd|th)?,? \d{3,4}|(?:${MONTHS}) \d{3,4}|(?:early |late |mid-?)?\d{1,2}(?:st|nd|rd|th) century|\d{3,4}s?(?: (?:AD|BC|CE|BCE))?)\b`,
    'giu',
  ),
  number: new RegExp(
    String.raw`\b(?:\d[\d,.]*(?: (?:${WORD_NUMBERS}))?|(?:${WORD_NUMBERS})(?:[- ](?:${WORD_NUMBERS}))*)\b`,
    'giu',
  ),
  person:
    /\b(?:[A-Z][\p{L}'’-]+|of|de|the|von|van|le|la)(?: (?:[A-Z][\p{L}'’.-]*|of|de|the|von|van|le|la|[IVX]+))*\b/gu,
  place: /\b[A-Z][\p{L}'’-]+(?: (?:[A-Z][\p{L}'’-]+|of|de|the))*\b/gu,
  name: /\b[A-Z][\p{L}'’-]+(?: (?:[A-Z][\p{L}'’-]+|of|de|the))*\b/gu,
}

/** The kind of answer a question asks for, from its wh-word and the noun after "what"/"which". */
export function answerType(question: string): AnswerType {
  const q = question.toLowerCase()
  if (
    /\b(?:when|what year|which year|what century|which century|what date|what decade|what time|how long ago)\b/.test(
      q,
    )
  )
    return 'date'
  if (
    /\bhow (?:many|much|long|old|far|large|big|high|often)\b|\bwhat (?:number|percentage|amount|proportion)\b/.test(
      q,
    )
  )
    return 'number'
  if (/\b(?:who|whom|whose)\b/.test(q)) return 'person'
  if (
    /\bwhere\b|\b(?:what|which) (?:country|countries|city|cities|region|regions|place|places|area|river|island|islands|town|county|province|land|kingdom|location|continent|sea)\b/.test(
      q,
    )
  )
    return 'place'
  if (
    /\b(?:what|which) (?:is|was|were|are) the name\b|\bwhat (?:was|is) .* called\b|\bwhat (?:\w+ )?name\b/.test(
      q,
    )
  )
    return 'name'
  return 'other'
}

const ABBREVIATION = /(?:^|\s)(?:[A-Z]|Mr|Mrs|Ms|Dr|St|Mt|Jr|Sr|Sts|vs|etc|e\.g|i\.e|c|ca|No|Vol|pp|Fig)\.$/u

/** Sentences of a passage, not broken after initials or abbreviations ("S. Haghighat", "St. Peter"). */
export function answerSentences(text: string): string[] {
  const pieces = text.replace(/\[\d+\]/gu, '').split(/(?<=[.!?])\s+(?=["'“(]?[\p{Lu}\p{N}])|\n+/u)
  const sentences: string[] = []
  for (const piece of pieces) {
    const previous = sentences[sentences.length - 1]
    if (previous !== undefined && ABBREVIATION.test(previous))
      sentences[sentences.length - 1] = `${previous} ${piece}`
    else sentences.push(piece)
  }
  return sentences.map((s) => s.replace(/\s+/gu, ' ').trim()).filter((s) => /[\p{L}\p{N}]{2}/u.test(s))
}

/** Entities of the asked type in a sentence that the question does not already name. */
function entitiesOf(type: AnswerType, sentence: string, questionTerms: Set<string>) {
  if (type === 'other') return []
  const found: { text: string; index: number }[] = []
  for (const match of sentence.matchAll(ENTITY_PATTERNS[type])) {
    const text = match[0]
      .replace(/^(?:of|de|the|von|van|le|la) |(?: (?:of|de|the|von|van|le|la))+$/giu, '')
      .trim()
    const terms = contentTerms(text)
    if (terms.length === 0 || terms.every((t) => questionTerms.has(t))) continue
    found.push({ text, index: match.index + match[0].indexOf(text) })
  }
  return found
}

export interface AnswerPassage {
  index: number
  content: string
}

export interface SelectedAnswer {
  /** The sentence that answers, its passage's citation index, and the typed span inside it when one was found. */
  sentence: string
  passageIndex: number
  span: string | null
  coverage: number
}

/**
 * Scores every sentence of the passages: the question's content terms it contains, each weighted by rarity
 * (idf over the retrieved sentences), as a share of the question's total weight, times a bonus when the sentence
 * holds an entity of the asked type (or a malus when it holds none). The best sentence answers when it covers
 * enough of the question; inside it, the typed entity nearest the question's words is the span.
 */
export function selectAnswer(question: string, passages: AnswerPassage[]): SelectedAnswer | null {
  const type = answerType(question)
  const questionTerms = new Set(contentTerms(question))
  if (questionTerms.size === 0) return null
  const sentences = passages.flatMap((passage) =>
    answerSentences(passage.content).map((text) => ({
      text,
      passageIndex: passage.index,
      terms: contentTerms(text),
    })),
  )
  const frequency = new Map<string, number>()
  for (const sentence of sentences)
    for (const term of new Set(sentence.terms)) frequency.set(term, (frequency.get(term) ?? 0) + 1)
  const idf = (term: string) => Math.log(1 + (sentences.length + 1) / ((frequency.get(term) ?? 0) + 0.5))
  const questionWeight = [...questionTerms].reduce((sum, term) => sum + idf(term), 0)

  let best: (SelectedAnswer & { score: number }) | null = null
  for (const sentence of sentences) {
    const present = new Set(sentence.terms)
    const matched = [...questionTerms].filter((term) => present.has(term))
    if (matched.length === 0) continue
    const coverage = matched.reduce((sum, term) => sum + idf(term), 0) / questionWeight
    const entities = entitiesOf(type, sentence.text, questionTerms)
    const typeFactor = type === 'other' ? 1 : entities.length > 0 ? HAS_TYPE : LACKS_TYPE
    // Long sentences match more words by size alone; a mild length penalty keeps the answer close.
    const score = (coverage * typeFactor) / Math.log(Math.E + sentence.terms.length / 12)
    if (!best || score > best.score)
      best = {
        sentence: sentence.text,
        passageIndex: sentence.passageIndex,
        span: nearestEntity(entities, sentence.text, matched),
        coverage,
        score,
      }
  }
  if (!best || best.coverage < MIN_COVERAGE) return null
  const { score: _score, ...answer } = best
  return answer
}

/** The entity closest (in characters) to the question's words found in the sentence. */
function nearestEntity(
  entities: { text: string; index: number }[],
  sentence: string,
  matched: string[],
): string | null {
  if (entities.length === 0) return null
  const lower = sentence.toLowerCase()
  const anchors = matched.map((term) => lower.indexOf(term)).filter((at) => at >= 0)
  const distance = (at: number) => Math.min(...anchors.map((a) => Math.abs(a - at)))
  return [...entities].sort((a, b) => distance(a.index) - distance(b.index))[0]?.text ?? null
}
