import { describe, expect, it } from 'vitest'
import { nearMissOfWord } from './lexicon'
import { misreadMarks, nameReadsAsWords } from './read-checks'

/** Header names as tesseract reads the SROIE tuning receipts. */
describe('a header name a check can verify', () => {
  it('reads as words: every long word an English word or a legal form, nothing half-read', () => {
    expect(nameReadsAsWords('HOME MASTER HARDWARE & ELECTRICAL')).toBe(true) // 012.jpg
    expect(nameReadsAsWords('TASTE OF THE WORLD SDN BHD')).toBe(true) // 042.jpg as printed
    expect(nameReadsAsWords('AEON CO. (M) BHD')).toBe(true) // 031.jpg
  })

  it('is not verified when a long word is no word: a misread name, or a name the lexicon cannot check', () => {
    // 046.jpg: "PRGAR MINT" for "PASAR MINI"; "MINT" being English does not vouch for "PRGAR".
    expect(nameReadsAsWords('PRGAR MINT JIN SENG')).toBe(false)
    // 030.jpg: right, but "UNIHAKKA" cannot be told from a misread; the legal form does not vouch for it.
    expect(nameReadsAsWords('UNIHAKKA INTERNATIONAL SDN BHD')).toBe(false)
  })

  it('is not verified when a word is a stray mark, starts in lower case or has a capital inside', () => {
    expect(nameReadsAsWords('SMA J SUIGAL RENGIT ) SDN BHD')).toBe(false) // 007.jpg
    expect(nameReadsAsWords('riple Six Point Enterprise')).toBe(false) // 059.jpg
    expect(nameReadsAsWords('AIK HuaT ENTERPRISE')).toBe(false) // 011.jpg
  })

  it('is not verified when no word is a known word, or one is a near miss of a common word', () => {
    // 008.jpg: right, but nothing on it can be checked against the lexicon.
    expect(nameReadsAsWords('PERNIAGAAN ZHENG HUI')).toBe(false)
    // 042.jpg: "laste" for "Taste".
    expect(nearMissOfWord('laste')).toBe(true)
    expect(nearMissOfWord('UNIHAKKA')).toBe(false)
    expect(nearMissOfWord('PERNIAGAAN')).toBe(false)
  })
})

describe('the marks of a misread name', () => {
  it('counts a bracket left unpaired: its other half was read as a letter', () => {
    expect(misreadMarks('FUN CORNER (MALURD')).toBe(1)
    expect(misreadMarks('FUN CORNER (MALURI)')).toBe(0)
    expect(misreadMarks('ACME TRADING (SETIA')).toBe(1)
  })

  it('does not count the capital inside a German legal form as printed ("GmbH"), only inside the name', () => {
    expect(misreadMarks('Konditorei Engel GmbH')).toBe(0)
    expect(misreadMarks('Frischmarkt Weber GmbH & Co. KG')).toBe(0)
    expect(misreadMarks('KonDitorei Engel GmbH')).toBe(1)
    expect(misreadMarks('CafE Engel GmbH')).toBe(1)
  })
})
