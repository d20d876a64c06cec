/**
 * The builtin extractive answer: a retrieved sentence that answers the question's type (a person for "who", a
 * date for "when", a place for "where", a number for "how many", "X is ..." for "what is X", yes or no), holding
 * the question's names and numbers exactly, in the role the question asks about, with no contradiction of it,
 * next to enough of the question's words; or nothing: the caller then says it does not know. A "what/which"
 * question that no typed value answers gets nothing either: a whole sentence cannot show which thing it names.
 * Plain lexical rules; no model.
 */

import {
  type Anchors,
  contentStems,
  contradicts,
  isNegated,
  keepsPhrases,
  questionAnchors,
  stem,
  wordsOf,
} from './answer-evidence'
import {
  fillsPersonRole,
  namesAskedWord,
  OF_BEFORE,
  PLACE_BEFORE,
  personRole,
  type Span,
  sameDoer,
} from './answer-roles'
import { type AnswerType, type QuestionShape, questionShape } from './question-shape'

export { type AnswerType, questionShape } from './question-shape'

/**
 * Below this share of the question's (idf-weighted) content words found in a sentence, the sentence does not
 * answer. Chosen on the tuning halves of the answers benchmark (`bench/answers.bench.ts`): once the anchor, role,
 * phrase and contradiction checks hold, 0.6 to 1.0 gave no more precision there for much less coverage (the
 * remaining errors hold every word of the question), and a word-order agreement threshold neither.
 */
export const MIN_COVERAGE = 0.5
/** A yes or no needs nearly all of the question's words in one sentence: anything less is a guess. */
const YES_NO_COVERAGE = 0.85

const WORD_NUMBERS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|several|zwei|drei|vier|fünf|zehn|hundert|tausend|deux|trois|quatre|cinq|dix|cent|mille|dos|tres|cuatro|cinco|diez|cien|mil'
const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre'
const NAME_JOINERS = 'of|de|the|von|van|le|la|del|da|du'

/** A run of capitalised words (with joiners inside: "William the Conqueror", "Charles III"). */
const NAME = new RegExp(
  String.raw`\p{Lu}[\p{L}'’-]+(?: (?:\p{Lu}[\p{L}'’.-]*|${NAME_JOINERS}|[IVX]+))*`,
  'gu',
)
const ENTITY_PATTERNS: Record<'person' | 'date' | 'place' | 'number' | 'name', RegExp> = {
  date: new RegExp(
    String.raw`\b(?:\d{1,2}(?:st|nd|rd|th|\.)? (?:${MONTHS})(?: \d{3,4})?|(?:${MONTHS}) \d{1,2}(?:st|nd|rd|th)?,? \d{3,4}|(?:${MONTHS}) \d{3,4}|(?:early |late |mid-?)?\d{1,2}(?:st|nd|rd|th) (?:and \d{1,2}(?:st|nd|rd|th) )?centur(?:y|ies)|\d{3,4}s?(?: (?:AD|BC|CE|BCE))?)\b`,
    'giu',
  ),
  number: new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:\d[\d,.]*(?: (?:${WORD_NUMBERS}))?|(?:${WORD_NUMBERS})(?:[- ](?:${WORD_NUMBERS}))*)(?![\p{L}\p{N}])(?: ?%| [\p{L}]+)?`,
    'giu',
  ),
  person: NAME,
  place: NAME,
  name: NAME,
}

/** A copula right after a subject (an aside in parentheses or two words between allowed): "X (Y) is ...". */
const COPULA_AFTER_SUBJECT =
  /^(?:[\s,]+(?:\([^)]*\)|[\p{L}\p{N}'’-]+)){0,2}?[\s,]+(?:is|are|was|were|refers to|means|denotes|ist|sind|bezeichnet|est|sont|désigne|es|son|significa)\b(?!\s+(?:not|nicht|pas|no|by|\p{L}+ed|\p{L}+en)\b)/u

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

/** The question's content stems, without the words that only say what kind of answer it wants ("what year"). */
const TYPE_WORDS = new Set(
  [
    'year',
    'century',
    'date',
    'decade',
    'time',
    'name',
    'named',
    'called',
    'number',
    'amount',
    'jahr',
    'année',
    'año',
  ].map(stem),
)

const DETERMINER_BEFORE = /\b(?:a|an|the|other|another|this|that|its|their|his|her|our|every)\s+$/iu
/** Words after a name that make it a doer (a verb, an auxiliary) or end it (a conjunction, a relative pronoun). */
const NOT_A_NOUN =
  /^(?:is|was|were|are|be|been|had|has|have|did|does|do|will|would|could|should|may|might|must|can|and|or|but|nor|who|which|that|whose|whom|\p{Ll}+ed|\p{Ll}+ly)$/u

/** Whether a single capitalised word stands as an adjective: after a determiner and before a lower-case noun. */
function describesNoun(sentence: string, index: number, word: string): boolean {
  const next = /^\s+(\p{Ll}+)/u.exec(sentence.slice(index + word.length))?.[1]
  return next !== undefined && !NOT_A_NOUN.test(next) && DETERMINER_BEFORE.test(sentence.slice(0, index))
}

/**
 * Entities of the asked type in a sentence, each cut of the question's own leading words ("Duke William" for
 * "who was the duke" is "William"); one that still holds a question word is the question's own and is left out.
 * A name right after a place preposition ("in Asia Minor") is a place: it answers "where", not "who".
 */
function entitiesOf(sentence: string, asked: Asked) {
  const { type } = asked.shape
  const { english, stems: questionStems } = asked
  if (!(type in ENTITY_PATTERNS)) return []
  const found: Span[] = []
  const joiners = new RegExp(`^(?:(?:${NAME_JOINERS}) )+|(?: (?:${NAME_JOINERS}))+$`, 'giu')
  for (const match of sentence.matchAll(ENTITY_PATTERNS[type as keyof typeof ENTITY_PATTERNS])) {
    let text = match[0].replace(joiners, '').trim()
    let index = match.index + match[0].indexOf(text)
    // A sentence's first word is capitalised by grammar: alone, it names something only before a verb.
    if (type !== 'number' && type !== 'date' && match.index === 0 && !text.includes(' ')) {
      const next = sentence.slice(match[0].length).trimStart()
      if (!/^(?:[,(]|(?:is|was|were|are|has|had|and|\p{Ll}+ed)\b)/u.test(next)) continue
    }
    for (let lead = /^[\p{L}\p{N}'’-]+\s+/u.exec(text); lead; lead = /^[\p{L}\p{N}'’-]+\s+/u.exec(text)) {
      const word = contentStems(lead[0], english)
      if (word.length === 0 || !word.every((w) => questionStems.has(w))) break
      text = text.slice(lead[0].length).replace(joiners, '')
      index += lead[0].length
    }
    const stems = contentStems(text, english)
    // A number's unit may be the question's ("how many days": "14 days"); a name may hold none of its words.
    const valued = type === 'number' || type === 'date'
    if (
      stems.length === 0 ||
      (valued ? stems.every((t) => questionStems.has(t)) : stems.some((t) => questionStems.has(t)))
    )
      continue
    // "a Norman adventurer", "the English army": a capitalised word before a noun describes it, names nothing.
    if (type !== 'number' && type !== 'date' && !text.includes(' ') && describesNoun(sentence, index, text))
      continue
    // A name after a place preposition ("in Asia Minor", "count of Apulia") is a place; "where" wants one.
    const afterPlaceWord = PLACE_BEFORE.test(sentence.slice(0, index))
    if (((type === 'person' || type === 'name') && afterPlaceWord) || (type === 'place' && !afterPlaceWord))
      continue
    // "southern Italy" is the place, not all of Italy: the direction word belongs to the answer.
    const direction = /\b(?:northern|southern|eastern|western|central|upper|lower)\s+$/iu.exec(
      sentence.slice(0, index),
    )
    if (type === 'place' && direction)
      found.push({ text: `${direction[0]}${text}`.replace(/[.,;:]+$/u, ''), index: direction.index })
    else found.push({ text: text.replace(/[.,;:]+$/u, ''), index })
  }
  return found
}

export interface AnswerPassage {
  index: number
  content: string
}

export interface SelectedAnswer {
  /** The sentence that answers and its passage's citation index. */
  sentence: string
  passageIndex: number
  /** The short answer stated first: the typed value, "yes"/"no", or null when the sentence itself answers. */
  span: string | null
  coverage: number
  type: AnswerType
}

/** What the question asks, read once: its shape, content stems (type words aside) and anchors. */
interface Asked {
  text: string
  shape: QuestionShape
  english: boolean
  stems: Set<string>
  anchors: Anchors
}

interface Candidate {
  text: string
  passageIndex: number
  stems: string[]
  /**
   * Every word of the sentence, stemmed, with those of the sentence before when it opens with a pronoun ("It was
   * discovered by ..."): where anchors are looked up.
   */
  context: Set<string>
  /** The stems of the sentence before, when this one opens with a pronoun standing for something in it. */
  antecedent: Set<string> | null
}

/**
 * The entity that answers: among those standing where the question's answer must (for "who", `fillsPersonRole`
 * in English), the one closest to the question's words in the sentence.
 */
function bestEntity(entities: Span[], sentence: string, asked: Asked, matched: string[]): Span | null {
  const { shape, anchors } = asked
  const near = [...sentence.matchAll(/[\p{L}\p{N}]+/gu)]
    .filter((w) => matched.includes(stem(wordsOf(w[0])[0] ?? '')))
    .map((w) => ({ index: w.index, end: w.index + w[0].length }))
  const role = shape.type === 'person' && shape.language === 'en' ? personRole(asked.text) : null
  const distance = (entity: Span) => {
    const end = entity.index + entity.text.length
    return Math.min(...near.map((w) => Math.min(Math.abs(w.index - entity.index), Math.abs(w.index - end))))
  }
  // For "where", a name after "in", "to" or "at" says where; one after "of" rather says whose.
  const rank = (entity: Span) =>
    distance(entity) + (shape.type === 'place' && OF_BEFORE.test(sentence.slice(0, entity.index)) ? 1000 : 0)
  return (
    entities
      .filter((entity) => !role || fillsPersonRole(entity, sentence, role, near, anchors.names))
      .filter((entity) => shape.type !== 'name' || namesAskedWord(entity, sentence, near))
      .sort((a, b) => rank(a) - rank(b))[0] ?? null
  )
}

/** "X is ...": the sentence names the subject near its start and a copula follows it within a few words. */
function defines(sentence: string, subject: string, english: boolean): boolean {
  const lower = sentence.toLowerCase()
  const stems = contentStems(subject, english).map((term) => term.slice(0, Math.max(4, term.length - 1)))
  const start = lower.indexOf(stems[0] ?? '\u0000')
  if (start < 0 || start > 40) return false
  let end = start
  for (const part of stems) {
    const at = lower.indexOf(part, start)
    if (at < 0 || at - end > 20) return false
    end = Math.max(end, at + part.length)
  }
  return COPULA_AFTER_SUBJECT.test(lower.slice(end).replace(/^[\p{L}\p{N}'’-]*/u, ''))
}

const PRONOUN_FIRST =
  /^(?:he|she|it|they|his|her|its|their|this|these|those|er|sie|es|ihr|sein|seine|il|elle|ils|elles|son|sa|ses|él|ella|ellos|su|sus)\b/iu

/** "What", "which" and their siblings in the four languages: the question wants a named thing, not a sentence. */
const ASKS_FOR_A_THING = /^¿?(?:what|which|was|welche[rsnm]?|que|quel(?:le)?s?|qu'|qué|cuál(?:es)?)(?:\s|$)/iu

/** Sentences of the passages with their stems and the words of the sentence before each one. */
function candidatesOf(passages: AnswerPassage[], english: boolean): Candidate[] {
  return passages.flatMap((passage) => {
    const sentences = answerSentences(passage.content)
    return sentences.map((text, i) => ({
      text,
      passageIndex: passage.index,
      stems: contentStems(text, english),
      // A sentence opening with a pronoun names its subject in the sentence before.
      context: new Set(
        wordsOf(PRONOUN_FIRST.test(text) ? `${sentences[i - 1] ?? ''} ${text}` : text).map(stem),
      ),
      antecedent: PRONOUN_FIRST.test(text) ? new Set(contentStems(sentences[i - 1] ?? '', english)) : null,
    }))
  })
}

/**
 * Scores every sentence of the passages by the share of the question's content stems (idf-weighted over the
 * retrieved sentences) it holds, with a mild length penalty, among the sentences that may answer: they hold every
 * anchor of the question (its names and numbers, here or in the sentence before), the question's rarest word, no
 * contradiction of it (a negation or an opposite word only one side has), and an answer of the asked type: an
 * entity of that type beyond the question's words, a definition of the asked subject, or for yes/no nearly all of
 * the question. The best one answers when it covers at least MIN_COVERAGE; otherwise null.
 */
export function selectAnswer(question: string, passages: AnswerPassage[]): SelectedAnswer | null {
  const shape = questionShape(question)
  const english = shape.language === 'en'
  const questionStems = new Set(contentStems(question, english).filter((s) => !TYPE_WORDS.has(s)))
  if (questionStems.size === 0) return null
  const anchors = questionAnchors(question)
  const asked: Asked = { text: question, shape, english, stems: questionStems, anchors }
  const sentences = candidatesOf(passages, english)
  const frequency = new Map<string, number>()
  for (const sentence of sentences)
    for (const term of new Set(sentence.stems)) frequency.set(term, (frequency.get(term) ?? 0) + 1)
  const idf = (term: string) => Math.log(1 + (sentences.length + 1) / ((frequency.get(term) ?? 0) + 0.5))
  const questionWeight = [...questionStems].reduce((sum, term) => sum + idf(term), 0)
  // The question's rarest word found in the passages is its topic: a sentence without it is about something else.
  const topic = [...questionStems].filter((term) => frequency.has(term)).sort((a, b) => idf(b) - idf(a))[0]
  if (!topic) return null

  let best: (SelectedAnswer & { score: number }) | null = null
  for (const sentence of sentences) {
    const present = new Set(sentence.stems)
    const anchored = [...anchors.names, ...anchors.owned].every((anchor) => sentence.context.has(anchor))
    if (!present.has(topic) || !anchored) continue
    if (shape.type !== 'yesno' && contradicts(question, sentence.text)) continue
    const matched = [...questionStems].filter((term) => present.has(term))
    // "It was discovered by X" answers "who discovered Y" only if the sentence before speaks of Y.
    const missing = [...questionStems].filter((term) => !present.has(term))
    if (sentence.antecedent && missing.length > 0 && !missing.some((term) => sentence.antecedent?.has(term)))
      continue
    if (english && !sameDoer(question, sentence.text, anchors.names)) continue
    // Names alone say nothing of how they relate: one of the question's other words must be there too.
    const related = matched.some((term) => !anchors.names.includes(term))
    if (!related && shape.type !== 'definition' && shape.type !== 'other') continue
    const coverage = matched.reduce((sum, term) => sum + idf(term), 0) / questionWeight
    if (english && !keepsPhrases(question, sentence.text)) continue
    const answer = answerIn(sentence, asked, matched, coverage)
    if (!answer) continue
    // Long sentences match more words by size alone; a mild length penalty keeps the answer close.
    const score = coverage / Math.log(Math.E + sentence.stems.length / 12)
    if (!best || score > best.score) best = { ...answer, score }
  }
  if (!best || best.coverage < MIN_COVERAGE) return null
  const { score: _score, ...answer } = best
  return answer
}

/** The answer a sentence gives to the question's type, or null when it does not give one. */
function answerIn(
  sentence: Candidate,
  asked: Asked,
  matched: string[],
  coverage: number,
): SelectedAnswer | null {
  const { shape, english, stems: questionStems } = asked
  const base = { sentence: sentence.text, passageIndex: sentence.passageIndex, coverage, type: shape.type }
  // Words the sentence adds to the question: with none, it only repeats the question.
  const novel = sentence.stems.filter((term) => !questionStems.has(term))
  switch (shape.type) {
    case 'definition':
      return shape.subject && novel.length >= 2 && defines(sentence.text, shape.subject, english)
        ? { ...base, span: null }
        : null
    case 'yesno': {
      if (coverage < YES_NO_COVERAGE) return null
      const negated = isNegated(sentence.text) !== isNegated(shape.focus ?? '')
      return { ...base, span: negated ? 'No' : 'Yes' }
    }
    case 'other':
      // "What/which ..." asks for a thing the sentence names; a whole sentence cannot show which one.
      if (ASKS_FOR_A_THING.test(shape.focus ?? '')) return null
      return novel.length >= 2 ? { ...base, span: null } : null
    default: {
      const entity = bestEntity(entitiesOf(sentence.text, asked), sentence.text, asked, matched)
      return entity ? { ...base, span: entity.text } : null
    }
  }
}

/** The plain "I don't know" in the question's language, offering a person instead. */
const DO_NOT_KNOW: Record<QuestionShape['language'], string> = {
  en: "I don't know that from the documents I have. You can ask to talk to a person.",
  de: 'Das weiß ich aus meinen Dokumenten nicht. Sie können darum bitten, mit einer Person zu sprechen.',
  fr: 'Je ne le sais pas d’après mes documents. Vous pouvez demander à parler à une personne.',
  es: 'No lo sé según mis documentos. Puede pedir hablar con una persona.',
}

export const doNotKnow = (question: string) => DO_NOT_KNOW[questionShape(question).language]

/** Whether a reply is the plain "I don't know" (in any of its languages). */
export const saysDoNotKnow = (reply: string) => Object.values(DO_NOT_KNOW).includes(reply.trim())
