import type { PageText } from '../page-text'

/**
 * Characters a font with a usable character map does not yield: control characters, private-use code points
 * (symbol fonts and subset fonts without a `ToUnicode` map decode to U+E000-U+F8FF), unassigned ones, lone
 * surrogates and U+FFFD.
 */
const JUNK_CHARACTER = /[\p{Cc}\p{Co}\p{Cn}\p{Cs}\uFFFD]/u
const EDGE_MARKS = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu
/** Under this share of its characters in readable words, a page's text layer is junk. */
const READABLE_SHARE = 0.5

/**
 * A word a reader could read: no junk character, and once the punctuation at its ends is off, at least half of it
 * letters or digits ("1,190.00", "Nr.", "(M)"). Glyph codes decoded without a map read as marks ("!\"#$%&'"), not as
 * words.
 */
function readable(word: string): boolean {
  if (JUNK_CHARACTER.test(word)) return false
  const core = word.replace(EDGE_MARKS, '')
  const letters = (core.match(/[\p{L}\p{N}]/gu) ?? []).length
  return letters > 0 && letters * 2 >= core.length
}

/** A text layer whose characters are mostly in words no reader could read: the page is read by OCR instead. */
export function unreadableTextLayer(page: PageText): boolean {
  let all = 0
  let read = 0
  for (const { text } of page.words) {
    all += text.length
    if (readable(text)) read += text.length
  }
  return all > 0 && read < all * READABLE_SHARE
}
