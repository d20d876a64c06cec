/**
 * The builtin extractive answer: a retrieved sentence that answers the question's type (a person for "who", a
 * date for "when", a place for "where", a number for "how many", "X is ..." for "what is X", yes or no), next to
 * enough of the question's words, or nothing: the caller then says it does not know. Plain lexical rules; no model.
 */
import { type AnswerType, type QuestionShape, questionShape } from './question-shape'
import { NON_ENGLISH_FUNCTION_WORDS } from './stopwords'
import { contentTerms } from './text-overlap'

export { type AnswerType, questionShape } from './question-shape'

/**
 * Below this share of the question's (idf-weighted) content words found in a sentence, the sentence does not
 * answer. Chosen on the tuning halves of the answers benchmark (`bench/answers.bench.ts`): 0.65 and 0.8 gave no
 * more precision there for much less coverage.
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
const NEGATION =
  /\b(?:not|no|never|none|cannot|nicht|kein|keine|nie|ne|pas|jamais|nunca|ningún|ninguna)\b|n't\b/iu

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

/** Content words of a text for the question's language (other languages' function words left out). */
function termsOf(text: string, shape: QuestionShape): string[] {
  const terms = contentTerms(text)
  return shape.language === 'en' ? terms : terms.filter((term) => !NON_ENGLISH_FUNCTION_WORDS.has(term))
}

interface Span {
  text: string
  index: number
}

/** Entities of the asked type in a sentence that are not merely the question's own words. */
function entitiesOf(type: AnswerType, sentence: string, shape: QuestionShape, questionTerms: Set<string>) {
  if (!(type in ENTITY_PATTERNS)) return []
  const found: Span[] = []
  const joiners = new RegExp(`^(?:(?:${NAME_JOINERS}) )+|(?: (?:${NAME_JOINERS}))+$`, 'giu')
  for (const match of sentence.matchAll(ENTITY_PATTERNS[type as keyof typeof ENTITY_PATTERNS])) {
    const text = match[0].replace(joiners, '').trim()
    const terms = termsOf(text, shape)
    // A sentence's first word is capitalised by grammar: alone, it names something only before a verb.
    if (type !== 'number' && type !== 'date' && match.index === 0 && !text.includes(' ')) {
      const next = sentence.slice(match[0].length).trimStart()
      if (!/^(?:[,(]|(?:is|was|were|are|has|had|and|\p{Ll}+ed)\b)/u.test(next)) continue
    }
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
  /** The sentence that answers and its passage's citation index. */
  sentence: string
  passageIndex: number
  /** The short answer stated first: the typed value, "yes"/"no", or null when the sentence itself answers. */
  span: string | null
  coverage: number
  type: AnswerType
}

interface Candidate {
  text: string
  passageIndex: number
  terms: string[]
}

/** Where the question's focus word (the verb or noun right after the question word) stands in the sentence. */
function focusIndex(sentence: string, shape: QuestionShape): number {
  const focus = termsOf(shape.focus ?? '', shape)[0]
  if (!focus) return -1
  const words = [...sentence.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)]
  const stem = focus.slice(0, Math.max(3, focus.length - 2))
  return words.find((w) => w[0].startsWith(stem))?.index ?? -1
}

/**
 * The entity that answers: for "who did X" the one right before the focus verb (its subject) or after "by"
 * (a passive's agent) is preferred, then the one closest to the question's words.
 */
function bestEntity(
  entities: Span[],
  sentence: string,
  shape: QuestionShape,
  matched: string[],
): Span | null {
  if (entities.length === 0) return null
  const lower = sentence.toLowerCase()
  const anchors = matched.map((term) => lower.indexOf(term)).filter((at) => at >= 0)
  const focus = focusIndex(sentence, shape)
  const rank = (entity: Span) => {
    const end = entity.index + entity.text.length
    const nearest = Math.min(...anchors.map((a) => Math.min(Math.abs(a - entity.index), Math.abs(a - end))))
    if (focus < 0) return nearest
    const subject = focus >= end && focus - end <= 12
    const agent = entity.index > focus && /\b(?:by|von|par|por)\s+$/iu.test(sentence.slice(0, entity.index))
    return subject || agent ? nearest - 1000 : nearest
  }
  return [...entities].sort((a, b) => rank(a) - rank(b))[0] ?? null
}

/** "X is ...": the sentence names the subject near its start and a copula follows it within a few words. */
function defines(sentence: string, subject: string, shape: QuestionShape): boolean {
  const lower = sentence.toLowerCase()
  const stems = termsOf(subject, shape).map((term) => term.slice(0, Math.max(4, term.length - 2)))
  const start = lower.indexOf(stems[0] ?? '\u0000')
  if (start < 0 || start > 40) return false
  let end = start
  for (const stem of stems) {
    const at = lower.indexOf(stem, start)
    if (at < 0 || at - end > 20) return false
    end = Math.max(end, at + stem.length)
  }
  return COPULA_AFTER_SUBJECT.test(lower.slice(end).replace(/^[\p{L}\p{N}'’-]*/u, ''))
}

/**
 * Scores every sentence of the passages by the share of the question's content words (idf-weighted over the
 * retrieved sentences) it holds, with a mild length penalty, among the sentences that answer the question's type:
 * one holding an entity of the asked type beyond the question's words, a definition of the asked subject, or for
 * yes/no nearly all of the question. The best one answers when it covers at least MIN_COVERAGE; otherwise null.
 */
export function selectAnswer(question: string, passages: AnswerPassage[]): SelectedAnswer | null {
  const shape = questionShape(question)
  const questionTerms = new Set(termsOf(question, shape))
  if (questionTerms.size === 0) return null
  const sentences: Candidate[] = passages.flatMap((passage) =>
    answerSentences(passage.content).map((text) => ({
      text,
      passageIndex: passage.index,
      terms: termsOf(text, shape),
    })),
  )
  const frequency = new Map<string, number>()
  for (const sentence of sentences)
    for (const term of new Set(sentence.terms)) frequency.set(term, (frequency.get(term) ?? 0) + 1)
  const idf = (term: string) => Math.log(1 + (sentences.length + 1) / ((frequency.get(term) ?? 0) + 0.5))
  const questionWeight = [...questionTerms].reduce((sum, term) => sum + idf(term), 0)
  // The question's rarest word found in the passages is its topic: a sentence without it is about something else.
  const topic = [...questionTerms].filter((term) => frequency.has(term)).sort((a, b) => idf(b) - idf(a))[0]
  if (!topic) return null

  let best: (SelectedAnswer & { score: number }) | null = null
  for (const sentence of sentences) {
    const present = new Set(sentence.terms)
    const matched = [...questionTerms].filter((term) => present.has(term))
    if (!present.has(topic)) continue
    const coverage = matched.reduce((sum, term) => sum + idf(term), 0) / questionWeight
    const answer = answerIn(sentence, shape, questionTerms, matched, coverage)
    if (!answer) continue
    // Long sentences match more words by size alone; a mild length penalty keeps the answer close.
    const score = coverage / Math.log(Math.E + sentence.terms.length / 12)
    if (!best || score > best.score) best = { ...answer, score }
  }
  if (!best || best.coverage < MIN_COVERAGE) return null
  const { score: _score, ...answer } = best
  return answer
}

/** The answer a sentence gives to the question's type, or null when it does not give one. */
function answerIn(
  sentence: Candidate,
  shape: QuestionShape,
  questionTerms: Set<string>,
  matched: string[],
  coverage: number,
): SelectedAnswer | null {
  const base = { sentence: sentence.text, passageIndex: sentence.passageIndex, coverage, type: shape.type }
  // Words the sentence adds to the question: with none, it only repeats the question.
  const novel = sentence.terms.filter((term) => !questionTerms.has(term))
  switch (shape.type) {
    case 'definition':
      return shape.subject && novel.length >= 2 && defines(sentence.text, shape.subject, shape)
        ? { ...base, span: null }
        : null
    case 'yesno': {
      if (coverage < YES_NO_COVERAGE) return null
      const negated = NEGATION.test(sentence.text) !== NEGATION.test(shape.focus ?? '')
      return { ...base, span: negated ? 'No' : 'Yes' }
    }
    case 'other':
      return novel.length >= 2 ? { ...base, span: null } : null
    default: {
      const entity = bestEntity(
        entitiesOf(shape.type, sentence.text, shape, questionTerms),
        sentence.text,
        shape,
        matched,
      )
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
