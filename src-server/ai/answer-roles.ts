/**
 * Whether a name in a sentence stands where the question's answer must stand. "Who won X" asks for the subject
 * of "won" (or the agent after "by" of "was won"), "who did X marry" for someone who is not a subject, "who was
 * X's brother" for a name next to "brother", "where" for a name after a place preposition. A name in the wrong
 * place is another participant of the same event: answering with it is the confident wrong answer. Plain
 * lexical rules over English word order; questions in other languages keep only the place rule.
 */
import { stem, wordsOf } from './answer-evidence'
import { ENGLISH_STOPWORDS } from './stopwords'

export interface Span {
  text: string
  index: number
}

/** How a "who" question asks: for the doer of its verb, for another participant, or for who someone is. */
export type PersonRole =
  | { kind: 'subject'; verb: string; passive: boolean }
  | { kind: 'object'; verb: string | null }
  | { kind: 'copula' }

const AUXILIARY = /^(?:did|does|do|has|have|had|will|would|can|could|should|might|must|shall)\b/u
const COPULA = /^(?:is|was|were|are|be|been)\b\s*/u
const PARTICIPLE =
  /^(?:\p{L}+(?:ed|en)|born|made|led|held|built|sold|won|lost|fought|killed|told|found|given|taken|known|seen)$/u

/** The role a "who" question asks about, read from the words right after "who" (as written: names keep capitals). */
export function personRole(question: string): PersonRole {
  const focus = /\bwho(?:m|se)?\s+(.*)$/iu.exec(question)?.[1] ?? ''
  if (AUXILIARY.test(focus.toLowerCase())) {
    // "who did the Normans fight": the verb is the first lower-case word after the doer's name.
    const verb = focus
      .split(/\s+/u)
      .slice(1)
      .find((word) => /^\p{Ll}/u.test(word) && !ENGLISH_STOPWORDS.has(word))
    return { kind: 'object', verb: verb ? stem(wordsOf(verb)[0] ?? '') : null }
  }
  const copula = COPULA.exec(focus.toLowerCase())
  if (copula) {
    const next = wordsOf(focus.slice(copula[0].length))[0] ?? ''
    return PARTICIPLE.test(next) ? { kind: 'subject', verb: stem(next), passive: true } : { kind: 'copula' }
  }
  const verb = wordsOf(focus)[0]
  return verb ? { kind: 'subject', verb: stem(verb), passive: false } : { kind: 'copula' }
}

/** Where in the sentence a word with this stem stands (-1 if nowhere). */
function wordAt(sentence: string, wanted: string): { index: number; length: number } | null {
  for (const match of sentence.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = wordsOf(match[0])[0] ?? ''
    if (stem(word) === wanted || (wanted.length >= 4 && word.startsWith(wanted)))
      return { index: match.index, length: match[0].length }
  }
  return null
}

/** A name right after a verb in the past ("conquered England") is its object, not a subject. */
const OBJECT_OF_VERB = /\b\p{Ll}+ed\s+(?:the\s+)?$/u
const PASSIVE_BEFORE = /\b(?:is|was|were|are|been|being|be)\s+(?:\p{Ll}+ly\s+)?$/u
const AGENT_BEFORE = /\bby\s+(?:the\s+)?$/iu
/** What follows a subject: a verb in the past, an auxiliary, or a relative clause's comma. */
const VERB_AFTER = /^\s*(?:,\s*)?(?:had|has|have|was|were|is|are|did|would|could|\p{Ll}+ed)\b/u

/** Prepositions before a place in the four languages; a name after one is a place. */
export const PLACE_BEFORE =
  /\b(?:in|at|into|near|from|across|throughout|within|to|towards?|of|on|river|city|town|island|region|province|county|kingdom|village|nach|bei|aus|im|zu|à|au|dans|près de|en|de|cerca de)\s+(?:the\s+|den\s+|dem\s+|der\s+|la\s+|le\s+|l'|el\s+)?(?:(?:northern|southern|eastern|western|central|upper|lower|far)\s+)?$/iu
/** "monks of Saint-Evroul": after "of" a name says whose or which, less often where. */
export const OF_BEFORE = /\b(?:of|von|de)\s+(?:the\s+)?$/iu

/** What may stand between a name and the noun it is: a copula, "as", an article ("Duncan as a hostage"). */
const IS_A_BETWEEN = /^\s*,?\s*(?:(?:as|was|is|were|are|became|becomes|the|a|an)\s+)*$/u
/** What may stand between the noun and the name it is: apposition or a copula ("the leader ... was Rollo"). */
const IS_BETWEEN = /^\s*[:,]?\s*(?:(?:was|is|were|are|became|becomes)\s+)?$/u

/**
 * Whether the name is one of the question's words, in apposition ("his nephew Tancred", "the castle: Afranji")
 * or with "as"/a copula between ("Duncan as a hostage", "the leader ... was Rollo"): not a name merely near it
 * ("Bohemond and his nephew").
 */
export function namesAskedWord(
  entity: Span,
  sentence: string,
  near: { index: number; end: number }[],
): boolean {
  const end = entity.index + entity.text.length
  return near.some((w) =>
    w.end <= entity.index
      ? IS_BETWEEN.test(sentence.slice(w.end, entity.index))
      : w.index >= end && IS_A_BETWEEN.test(sentence.slice(end, w.index)),
  )
}

const PRONOUN = /^(?:he|she|they|it)$/iu
/** A name (a run of capitalised words) or a pronoun standing for one. */
const NAME_OR_PRONOUN = /\p{Lu}[\p{L}'’-]*(?:\s+(?:of|the|de|\p{Lu}[\p{L}'’-]*))*|\b(?:he|she|they|it)\b/gu

/**
 * For "who did S V", the name that does V in the sentence: the last name (or pronoun) before the asked word
 * that the answer follows. The answer is only someone S did something to when that name is S.
 */
function doerBefore(sentence: string, at: number): string | null {
  const names = [...sentence.slice(0, at).matchAll(NAME_OR_PRONOUN)]
  return names[names.length - 1]?.[0] ?? null
}

/** "when did the Normans attack X": the doer's words ("the Normans") and the verb ("attack"). */
const DID_DOER_VERB =
  /\b(?:did|does|do)\s+((?:(?:the|a|an)\s+)?(?:\p{Lu}[\p{L}'’-]*\s+(?:(?:of|the|de)\s+)?)+)(\p{Ll}+)/u

/**
 * For "when/where/how many did S V ...", whether S does V in the sentence: the last name or pronoun before the
 * sentence's V is S's (a sentence where someone else does V is about another event). Holds when the question has
 * no such form, or the sentence does not have V as a finite verb ("to serve").
 */
export function sameDoer(question: string, sentence: string, names: string[]): boolean {
  const asked = DID_DOER_VERB.exec(question)
  if (!asked?.[1] || !asked[2]) return true
  const verb = wordAt(sentence, stem(asked[2]))
  if (!verb || /\bto\s+$/u.test(sentence.slice(0, verb.index))) return true
  const doer = doerBefore(sentence, verb.index)
  // Numerals ("II") are shared by many names: the doer must share a word of the name itself.
  const named = wordsOf(asked[1])
    .map(stem)
    .filter((word) => names.includes(word) && !/^[ivx]+$/u.test(word))
  return doer === null || PRONOUN.test(doer) || wordsOf(doer).some((word) => named.includes(stem(word)))
}

/**
 * Whether the name answers a "who" question in the role it asks about: the subject right before the asked verb
 * (or the agent after "by" when the sentence turns the verb passive, with none of the question's words between
 * the verb and "by"), a name that is no verb's subject and follows one of the question's words whose doer is the
 * question's own name, or a name next to one of the question's words ("his half-brother Harthacnut").
 */
export function fillsPersonRole(
  entity: Span,
  sentence: string,
  role: PersonRole,
  near: { index: number; end: number }[],
  anchors: string[],
): boolean {
  const end = entity.index + entity.text.length
  const before = sentence.slice(0, entity.index)
  if (role.kind === 'copula') return namesAskedWord(entity, sentence, near)
  if (role.kind === 'object') {
    if (VERB_AFTER.test(sentence.slice(end)) || AGENT_BEFORE.test(before)) return false
    const verb = role.verb ? wordAt(sentence, role.verb) : null
    if (!verb || verb.index + verb.length > entity.index || entity.index - verb.index - verb.length > 25)
      return false
    const doer = doerBefore(sentence, verb.index)
    return doer !== null && (PRONOUN.test(doer) || wordsOf(doer).some((w) => anchors.includes(stem(w))))
  }
  const verb = wordAt(sentence, role.verb)
  if (!verb) return false
  const between = sentence.slice(end, verb.index)
  const verbIsPassive = PASSIVE_BEFORE.test(sentence.slice(0, verb.index))
  const subject =
    verb.index >= end &&
    between.length <= 12 &&
    verbIsPassive === role.passive &&
    !OBJECT_OF_VERB.test(before)
  const agent =
    !role.passive &&
    verbIsPassive &&
    entity.index > verb.index &&
    AGENT_BEFORE.test(before) &&
    !near.some((w) => w.index > verb.index + verb.length && w.index < entity.index)
  return subject || agent
}
