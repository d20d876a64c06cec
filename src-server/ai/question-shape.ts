/**
 * What a question asks for, read from its question words in English, German, French and Spanish: the kind of
 * answer (a person, a date, a place, a number, a definition, yes or no, or anything else), the language to
 * answer in, and for "what is X" the X being defined. Plain lexical rules; no model.
 */
export type AnswerType = 'person' | 'date' | 'place' | 'number' | 'name' | 'definition' | 'yesno' | 'other'
export type QuestionLanguage = 'en' | 'de' | 'fr' | 'es'

export interface QuestionShape {
  type: AnswerType
  language: QuestionLanguage
  /** For a definition: the words of the thing to define ("trace tree"). */
  subject: string | null
  /** The words after the question word, where the verb or noun the answer relates to usually stands. */
  focus: string | null
}

/** Each language's question words per answer type, tried in this order (a date before a number: "how long ago"). */
const TYPE_PATTERNS: [AnswerType, QuestionLanguage, RegExp][] = [
  [
    'date',
    'en',
    /\b(?:when|what (?:year|century|date|decade|time)|which (?:year|century|date|decade)|how long ago)\b/,
  ],
  ['date', 'de', /\b(?:wann|in welchem jahr(?:hundert)?|seit wann|an welchem tag)\b/],
  ['date', 'fr', /\b(?:quand|en quelle année|en quel siècle|à quelle date|quel jour)\b/],
  ['date', 'es', /(?:\bcuándo\b|\ben qué (?:año|siglo|fecha)\b)/],
  [
    'number',
    'en',
    /\bhow (?:many|much|long|old|far|large|big|high|tall|often)\b|\bwhat (?:number|percentage|amount|proportion)\b/,
  ],
  ['number', 'de', /\bwie (?:viele?|lange?|alt|weit|groß|hoch|oft)\b/],
  ['number', 'fr', /\bcombien\b/],
  ['number', 'es', /(?:\bcuánt[oa]s?\b)/],
  ['person', 'en', /\b(?:who|whom|whose)\b/],
  ['person', 'de', /\b(?:wer|wem|wen|wessen)\b/],
  ['person', 'fr', /(?:^|\s)(?:qui|par qui|à qui)\b(?! est-ce que)/],
  ['person', 'es', /(?:\bquién(?:es)?\b)/],
  [
    'place',
    'en',
    /\bwhere\b|\b(?:what|which|in what|in which) (?:country|countries|city|cities|region|place|area|river|island|town|county|province|kingdom|location|continent|sea)\b/,
  ],
  ['place', 'de', /\b(?:wo|woher|wohin|in welchem land|in welcher stadt)\b/],
  ['place', 'fr', /(?:^|\s)(?:où|d'où|dans quel pays|dans quelle ville)(?:\s|$)/],
  ['place', 'es', /(?:\bdónde\b|\bde dónde\b|\ben qué (?:país|ciudad)\b)/],
  ['name', 'en', /\b(?:what|which) (?:is|was|were|are) the name\b|\bwhat (?:was|is) .* called\b/],
  ['name', 'de', /\bwie (?:heißt|hieß|heißen|nennt man)\b/],
  ['name', 'fr', /\bcomment (?:s'appelle|s'appelait|appelle-t-on)\b/],
  ['name', 'es', /\bcómo se llama(?:ba)?\b/],
]

/** "What is X?" and its siblings: the X is captured. Short subjects only; longer ones are not definitions. */
const DEFINITION_PATTERNS: [QuestionLanguage, RegExp][] = [
  ['en', /^(?:what (?:is|are|was|were)|define|what does) (?:an? |the )?(.{2,60}?)(?: mean)?\s*\??$/],
  ['de', /^(?:was (?:ist|sind|war|bedeutet)) (?:ein |eine |der |die |das )?(.{2,60}?)\s*\??$/],
  [
    'fr',
    /^(?:qu'est-ce qu(?:e |')|que signifie |qu'est-ce que c'est qu(?:e |'))(?:une? |la |le |les |l')?(.{2,60}?)\s*\??$/,
  ],
  ['es', /^¿?(?:qué (?:es|son|significa)) (?:una? |el |la |los |las )?(.{2,60}?)\s*\??$/],
]

/** A question that begins with an auxiliary verb asks for yes or no. */
const YES_NO_PATTERNS: [QuestionLanguage, RegExp][] = [
  [
    'en',
    /^(?:is|are|was|were|do|does|did|can|could|will|would|has|have|had|should|may|must|isn't|aren't|doesn't|don't|didn't|can't)\b/,
  ],
  ['de', /^(?:ist|sind|war|waren|kann|können|hat|haben|gibt es|darf|muss|wird|werden)\b/],
  ['fr', /^(?:est-ce qu|peut-on|puis-je|y a-t-il|est-il|est-elle|sont-ils|a-t-il)/],
  ['es', /^¿?(?:es|son|fue|puedo|puede|hay|tiene|está)\b/],
]

/** Words a definition subject may not be, or the question is not a definition ("what is the capital of X"). */
const NOT_A_DEFINITION =
  /\b(?:of|the name|called|for|in|on|by|between|von|de|del|du|des|who|which|que|de la)\b/

/** Whether the subject is written as a name ("Patio de los Leones", "Champ-de-Mars"): its "de" is part of it. */
function isAName(question: string, subject: string): boolean {
  const at = question.toLowerCase().replace(/\s+/gu, ' ').trim().indexOf(subject)
  return at >= 0 && /^\p{Lu}/u.test(question.replace(/\s+/gu, ' ').trim().slice(at))
}

export function questionShape(question: string): QuestionShape {
  const q = question.toLowerCase().replace(/\s+/gu, ' ').trim()
  for (const [language, pattern] of DEFINITION_PATTERNS) {
    const subject = pattern.exec(q)?.[1]?.trim()
    if (
      subject &&
      subject.split(' ').length <= 4 &&
      (!NOT_A_DEFINITION.test(subject) || isAName(question, subject))
    )
      return { type: 'definition', language, subject, focus: subject }
  }
  for (const [type, language, pattern] of TYPE_PATTERNS) {
    const match = pattern.exec(q)
    if (match)
      return {
        type,
        language,
        subject: null,
        focus: q.slice(match.index + match[0].length).trim() || null,
      }
  }
  for (const [language, pattern] of YES_NO_PATTERNS)
    if (pattern.test(q)) return { type: 'yesno', language, subject: null, focus: q }
  const language = /^(?:was|welche[rsnm]?|warum|wie)\b/.test(q)
    ? 'de'
    : /^(?:quel(?:le)?s?|que|qu'|pourquoi|comment)/.test(q)
      ? 'fr'
      : /^¿?(?:qué|cuál(?:es)?|por qué|cómo)(?:\s|$)/.test(q)
        ? 'es'
        : 'en'
  return { type: 'other', language, subject: null, focus: q }
}
