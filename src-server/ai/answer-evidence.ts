/**
 * The evidence a sentence gives for a question, word by word: light stems so "married" meets "marry", the
 * question's anchors (names, numbers, years) that must stand in the sentence exactly, and the contradictions (a
 * negation or an opposite word only one side has) that make a sentence that looks like the answer say something
 * else. Plain lexical rules; no model.
 */
import { ENGLISH_STOPWORDS, NON_ENGLISH_FUNCTION_WORDS } from './stopwords'

/** Words in a text, lower-cased, accents folded ("Jumièges" meets "Jumieges"), possessive "'s" dropped. */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/['’]s\b/gu, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
}

/**
 * A light stem: inflection endings off (-ing, -ed, -es, -s, a final -e) and a final -y as -i, so "married",
 * "marry" and "marries" meet, as do "encouraged" and "encourage". Short words and numbers stay as they are.
 */
export function stem(word: string): string {
  const base = IRREGULAR.get(word) ?? word
  return SAME_MEANING.get(inflectionless(base)) ?? inflectionless(base)
}

/** English irregular past forms, so "led" meets "lead" and "won" meets "win". */
const IRREGULAR = new Map(
  (
    'led:lead won:win fought:fight built:build sold:sell bought:buy began:begin begun:begin took:take taken:take ' +
    'made:make gave:give given:give held:hold fled:flee met:meet became:become came:come wrote:write written:write ' +
    'knew:know known:know ran:run rose:rise fell:fall fallen:fall left:leave brought:bring sent:send spent:spend ' +
    'paid:pay said:say told:tell thought:think taught:teach kept:keep lost:lose struck:strike ruled:rule'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
)

/** Verbs of the same meaning, as their stems: founding a duchy is establishing it, starting is beginning. */
const SAME_MEANING = new Map(
  [
    ['establish', 'found', 'creat'],
    ['start', 'begin'],
    ['finish', 'end'],
    ['purchas', 'buy'],
    ['construct', 'build'],
    ['command', 'lead'],
    ['reign', 'rule'],
    ['di', 'death'],
  ].flatMap(([canonical, ...others]) => others.map((other) => [other, canonical as string] as const)),
)

function inflectionless(word: string): string {
  if (word.length <= 3 || /\d/u.test(word)) return word
  // British and American spellings meet: "patronised" and "patronized".
  let base = word.replace(/is(e|ed|es|ing|ation)$/u, 'iz$1')
  for (const ending of ['ing', 'ed', 'es', 's']) {
    // "-eed" is a stem's own ("succeed", "need"), "-ss" too ("across").
    if (base.endsWith(ending) && base.length - ending.length >= 3 && !/(?:ss|eed)$/u.test(base)) {
      base = base.slice(0, -ending.length)
      break
    }
  }
  return base.replace(/e$/u, '').replace(/y$/u, 'i')
}

/** Stems of a text's content words: function words of the question's language left out. */
export function contentStems(text: string, english: boolean): string[] {
  return wordsOf(text)
    .filter((word) => !ENGLISH_STOPWORDS.has(word) && (english || !NON_ENGLISH_FUNCTION_WORDS.has(word)))
    .map(stem)
}

const ROMAN_NUMERAL = /^[IVX]+$/u

export interface Anchors {
  /** Stems of the question's names and its numbers: "henri", "ii", "1191", "11th". */
  names: string[]
  /** Stems of the words owned in a possessive: "son" in "Edward's son". */
  owned: string[]
}

/**
 * The words of a question that name one thing and may not be swapped for another: capitalised words after the
 * first word (names, "Henry", "II"), numbers and years ("1191", "11th"), and the word after a possessive ("son"
 * in "Edward's son": the question is about the son, not Edward). Each must stand in the answering sentence, or
 * the sentence before when it opens with a pronoun, exactly (stemmed, so "Normans" meets "Norman").
 */
export function questionAnchors(question: string): Anchors {
  const tokens = question.match(/[\p{L}\p{N}'’-]+/gu) ?? []
  const names: string[] = []
  const owned: string[] = []
  tokens.forEach((token, i) => {
    const bare = token.replace(/['’]s$/u, '')
    if (i > 0 && /['’]s$/u.test(tokens[i - 1] ?? '')) owned.push(...wordsOf(bare).map(stem))
    else if (/\d/u.test(bare)) names.push(...wordsOf(bare))
    else if (i > 0 && (/^\p{Lu}/u.test(bare) || ROMAN_NUMERAL.test(bare)))
      names.push(...wordsOf(bare).map(stem))
  })
  const useful = (words: string[]) => [...new Set(words)].filter((word) => !ENGLISH_STOPWORDS.has(word))
  return { names: useful(names), owned: useful(owned) }
}

/** Negations in the languages the product ships: "not", "never", "n't", "nicht", "ne ... pas", "no", "nunca". */
const NEGATION =
  /\b(?:not|no|never|none|nor|neither|cannot|without|nicht|kein|keine|keinen|nie|niemals|ohne|pas|jamais|aucun|aucune|sans|nunca|ningún|ninguna|sin)\b|n't\b/iu

export const isNegated = (text: string) => NEGATION.test(text)

/**
 * Pairs of opposite words: a question holding one side and a sentence holding only the other asks about
 * something the sentence does not say ("what precedes X" against "X succeeds ...").
 */
const OPPOSITES: [string, string][] = [
  ['first', 'last'],
  ['before', 'after'],
  ['precede', 'succeed'],
  ['earliest', 'latest'],
  ['early', 'late'],
  ['oldest', 'newest'],
  ['oldest', 'youngest'],
  ['elder', 'younger'],
  ['older', 'younger'],
  ['most', 'least'],
  ['largest', 'smallest'],
  ['larger', 'smaller'],
  ['highest', 'lowest'],
  ['longest', 'shortest'],
  ['more', 'less'],
  ['more', 'fewer'],
  ['north', 'south'],
  ['east', 'west'],
  ['northern', 'southern'],
  ['eastern', 'western'],
  ['win', 'lose'],
  ['won', 'lost'],
  ['victory', 'defeat'],
  ['buy', 'sell'],
  ['bought', 'sold'],
  ['enter', 'leave'],
  ['entered', 'left'],
  ['rise', 'fall'],
  ['increase', 'decrease'],
  ['allow', 'forbid'],
  ['support', 'oppose'],
  ['supported', 'opposed'],
  ['start', 'end'],
  ['began', 'ended'],
  ['import', 'export'],
  ['upper', 'lower'],
  ['inside', 'outside'],
]

const OPPOSITE_OF = new Map<string, Set<string>>()
for (const [a, b] of OPPOSITES) {
  for (const [word, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const set = OPPOSITE_OF.get(stem(word)) ?? new Set<string>()
    set.add(stem(other))
    OPPOSITE_OF.set(stem(word), set)
  }
}

/**
 * Whether a sentence contradicts the question it seems to answer: one of them is negated and the other is not,
 * or the question holds a word whose opposite the sentence holds without the word itself.
 */
export function contradicts(question: string, sentence: string): boolean {
  if (isNegated(question) !== isNegated(sentence)) return true
  const said = new Set(wordsOf(sentence).map(stem))
  return wordsOf(question)
    .map(stem)
    .some((word) => !said.has(word) && [...(OPPOSITE_OF.get(word) ?? [])].some((other) => said.has(other)))
}

/** An article or possessive, then a describing word and the noun it describes: "a Norman general". */
const DESCRIBED_NOUN =
  /\b(?:a|an|the|their|his|her|its|our|this|that|these|those)\s+([\p{L}-]+)\s+([\p{L}-]+)/giu

/**
 * Whether the sentence keeps every noun phrase of the question whose two words it holds: "their Christian
 * spirit" asked against "martial spirit ... Christian piety" keeps the words but not the phrase, so the sentence
 * speaks of something else. A word ending in "s" before the noun is a plural doer ("the Normans attack").
 */
export function keepsPhrases(question: string, sentence: string): boolean {
  const said = wordsOf(sentence).map(stem)
  const pairs = new Set(said.slice(1).map((word, i) => `${said[i]} ${word}`))
  for (const match of question.matchAll(DESCRIBED_NOUN)) {
    const [first, second] = [wordsOf(match[1] ?? '').pop() ?? '', wordsOf(match[2] ?? '')[0] ?? '']
    if (first.endsWith('s') || ENGLISH_STOPWORDS.has(first) || ENGLISH_STOPWORDS.has(second)) continue
    const [a, b] = [stem(first), stem(second)]
    if (said.includes(a) && said.includes(b) && !pairs.has(`${a} ${b}`)) return false
  }
  return true
}
