import { isKnownWord, isLongWord } from './header-name'
import { fold } from './values'

/*
 * Two OCR engines' readings of one printed name, combined character by character (the idea of ROVER, recognizer
 * output voting, for two readers): each engine misreads different letters, and each loses different spaces.
 * "ED HENG STATIONERY & BOOKS" (tesseract, lost the faded T, read O as D) and "TEO HENGSTATIONERY & BOOKS"
 * (PaddleOCR, ran two words together) make "TEO HENG STATIONERY & BOOKS".
 */

interface Reading {
  text: string
  /** How sure the engine was of the whole name (its least sure word). */
  confidence: number
}

/** Readings further apart than this share of their characters are of different lines, not one line misread. */
export const MAX_DIFFERENCE = 0.4

/** Pairs of characters of two readings: an index into each, or null where one reading has no character there. */
export type Step = { sure: number | null; other: number | null }

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/**
 * The characters (spaces aside) of two texts paired by the fewest edits; a character either side may pair none.
 * `within`: `sure` is read within `other`, whose characters before and after the part paired with it are left
 * out at no cost (a row of the other reading that holds a name and more: "Vendeur:VermeerLogisticsSAS").
 */
export function align(sure: string[], other: string[], within = false): { steps: Step[]; edits: number } {
  const cost = Array.from({ length: sure.length + 1 }, (_, i) =>
    Array.from({ length: other.length + 1 }, (_, j) => (i === 0 ? (within ? 0 : j) : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= sure.length; i++)
    for (let j = 1; j <= other.length; j++)
      (cost[i] as number[])[j] = Math.min(
        (cost[i - 1]?.[j - 1] as number) + (same(sure[i - 1] as string, other[j - 1] as string) ? 0 : 1),
        (cost[i - 1]?.[j] as number) + 1,
        (cost[i]?.[j - 1] as number) + 1,
      )
  const last = cost[sure.length] as number[]
  let end = other.length
  if (within) for (let j = 0; j < other.length; j++) if ((last[j] as number) < (last[end] as number)) end = j
  const steps: Step[] = []
  let [i, j] = [sure.length, end]
  while (i > 0 || (j > 0 && !within)) {
    const here = cost[i]?.[j] as number
    if (
      i > 0 &&
      j > 0 &&
      here ===
        (cost[i - 1]?.[j - 1] as number) + (same(sure[i - 1] as string, other[j - 1] as string) ? 0 : 1)
    ) {
      steps.unshift({ sure: --i, other: --j })
    } else if (i > 0 && here === (cost[i - 1]?.[j] as number) + 1) steps.unshift({ sure: --i, other: null })
    else steps.unshift({ sure: null, other: --j })
  }
  return { steps, edits: last[end] as number }
}

/** A text's characters without spaces, and for each whether a space was printed before it. */
function characters(text: string): { chars: string[]; spaceBefore: boolean[] } {
  const chars: string[] = []
  const spaceBefore: boolean[] = []
  let space = false
  for (const char of text.trim()) {
    if (/\s/u.test(char)) space = true
    else {
      chars.push(char)
      spaceBefore.push(space && chars.length > 1)
      space = false
    }
  }
  return { chars, spaceBefore }
}

const lettersOf = (text: string) => text.replace(/[^\p{L}]/gu, '')

/**
 * A word the surer reading misread into no word, where the other read an English word in use ("Dwner", "Owner").
 * Not a word that differs only by its accents ("CAFÉ", "CAFE"): a name in another language is not a misread.
 */
const misreadOf = (own: string, theirs: string) =>
  isLongWord(lettersOf(own)) &&
  !isKnownWord(lettersOf(own)) &&
  fold(own) !== fold(theirs) &&
  isLongWord(lettersOf(theirs)) &&
  isKnownWord(lettersOf(theirs))

/**
 * A character standing alone that the other reading read as "&": OCR often reads an ampersand as "B" or "8"
 * ("STATIONERY B BOOKS"), and a name seldom holds a lone letter between words.
 */
const ampersandOf = (own: string, theirs: string) => theirs === '&' && own.length === 1 && own !== '&'

/**
 * The letter with the accent the other reading read on it ("a" and "ä"): the language's model reads its letters,
 * the other engine the same letters without their accents, so an accent is no misread.
 */
const accented = (own: string, theirs: string | undefined) =>
  theirs !== undefined && theirs !== own && theirs.normalize('NFD').replace(/\p{M}/gu, '') === own
    ? theirs
    : own

/**
 * One name from two readings of it, or null when they are too unlike to be one line read twice. Each character is
 * the surer reading's (with an accent the other read on it, `accented`) (the reading's field confidence: its least sure word and how name-like its line is); a
 * character only the less sure one read is left out (a speck read as a letter) unless it comes before all of the
 * surer one's; a word boundary either reading saw is kept (PaddleOCR runs words together); and a word the surer
 * reading misread into no word is the other's where that one is a word (`misreadOf`).
 */
export function mergeNames(a: Reading, b: Reading): string | null {
  const [sure, other] = a.confidence >= b.confidence ? [a, b] : [b, a]
  const s = characters(sure.text)
  const o = characters(other.text)
  if (s.chars.length === 0 || o.chars.length === 0) return null
  const { steps, edits } = align(s.chars, o.chars)
  if (edits > MAX_DIFFERENCE * Math.max(s.chars.length, o.chars.length)) return null
  // Words of the merged name, each with the other reading's characters over the same span.
  const words: { own: string; theirs: string }[] = []
  let started = false
  for (const step of steps) {
    // Characters only the less sure reading read count before the surer one's first (the start of a line it lost
    // at the paper's edge, "IA MART" and "ASIA MART"), not after it.
    const char =
      step.sure !== null
        ? accented(s.chars[step.sure] as string, step.other !== null ? o.chars[step.other] : undefined)
        : !started && step.other !== null
          ? o.chars[step.other]
          : null
    if (char === undefined || char === null) {
      const last = words[words.length - 1]
      if (last && step.other !== null) last.theirs += o.chars[step.other]
      continue
    }
    started ||= step.sure !== null
    // The other reading's word boundary only before a character both read alike: before a character misread, the
    // alignment may have paired it with another ("S/B" against "5": the "5"'s space went before the "B").
    const boundary =
      (step.sure !== null && (s.spaceBefore[step.sure] ?? false)) ||
      (step.other !== null &&
        (o.spaceBefore[step.other] ?? false) &&
        (step.sure === null || same(s.chars[step.sure] as string, o.chars[step.other] as string)))
    if (boundary || words.length === 0) words.push({ own: '', theirs: '' })
    const word = words[words.length - 1] as { own: string; theirs: string }
    word.own += char
    if (step.other !== null) word.theirs += o.chars[step.other]
  }
  return words
    .map(({ own, theirs }) => (misreadOf(own, theirs) || ampersandOf(own, theirs) ? theirs : own))
    .join(' ')
}
