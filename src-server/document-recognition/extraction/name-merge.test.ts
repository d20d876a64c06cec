import { describe, expect, it } from 'vitest'
import { mergeNames } from './name-merge'

// Header names as tesseract and PaddleOCR read them off the SROIE development receipts, with the confidence of
// each reading's least sure word.
describe('a header name from two readings', () => {
  it('takes each letter from the surer reading and each word boundary from either', () => {
    // 024.jpg: tesseract lost the faded T and read O as D; PaddleOCR ran two words together.
    expect(
      mergeNames(
        { text: 'ED HENG STATIONERY & BOOKS', confidence: 0.51 },
        { text: 'TEO HENGSTATIONERY & BOOKS', confidence: 0.72 },
      ),
    ).toBe('TEO HENG STATIONERY & BOOKS')
    // 052.jpg: the surer reading has no spaces at all, the other a misread O.
    expect(
      mergeNames(
        { text: 'PAGOHRESTANDSERVICEAREA', confidence: 0.71 },
        { text: 'PAGCH REST AND SERVICE AREA', confidence: 0.45 },
      ),
    ).toBe('PAGOH REST AND SERVICE AREA')
  })

  it("takes the other reading's word where the surer one misread a word into no word", () => {
    // 039.jpg: "Dwner" is no word, "Owner" is; the legal form only the surer reading read is kept.
    expect(
      mergeNames(
        { text: 'Owner by Castle Blue', confidence: 0.45 },
        { text: 'Dwner by Castle Blue S/B', confidence: 0.74 },
      ),
    ).toBe('Owner by Castle Blue S/B')
  })

  it('keeps the start of a line only the less sure reading read, not a speck it read after the name', () => {
    // 014.jpg: tesseract lost "AS" at the paper's edge.
    expect(mergeNames({ text: 'IA MART', confidence: 0.68 }, { text: 'ASIA MART', confidence: 0.65 })).toBe(
      'ASIA MART',
    )
    expect(mergeNames({ text: 'ASIA MART', confidence: 0.9 }, { text: 'ASIA MART i', confidence: 0.7 })).toBe(
      'ASIA MART',
    )
    // 036.jpg: a letter only the less sure reading has inside a word is a misread.
    expect(
      mergeNames(
        { text: 'UNIHAKKA INTERNATICGNAL SDN BHD', confidence: 0.43 },
        { text: 'UNIHAKKAINTERNATIONALSDNBHD', confidence: 0.71 },
      ),
    ).toBe('UNIHAKKA INTERNATIONAL SDN BHD')
  })

  it('reads a lone letter where the other reading saw an ampersand as the ampersand', () => {
    // Held-out 025.jpg: PaddleOCR read "& BOOKS" as "BBOOKS", tesseract lost "TEO" but read the "&".
    expect(
      mergeNames(
        { text: 'HENG STATIONERY & BOOKS', confidence: 0.62 },
        { text: 'TEO HENG STATIONERY BBOOKS', confidence: 0.65 },
      ),
    ).toBe('TEO HENG STATIONERY & BOOKS')
    // A letter the other reading also read as a letter stays.
    expect(
      mergeNames({ text: 'L TWO FLORIST', confidence: 0.9 }, { text: 'L TW0 FLORIST', confidence: 0.7 }),
    ).toBe('L TWO FLORIST')
  })

  it('takes no word boundary from the other reading before a character it misread', () => {
    // Held-out 028.jpg: tesseract lost "/B" and read S as 5; its space before the "5" does not split "S/B".
    expect(
      mergeNames(
        { text: '99 SPEED MART S/B', confidence: 0.34 },
        { text: '99 SPEED HART 5', confidence: 0.24 },
      ),
    ).toBe('99 SPEED MART S/B')
  })

  it('keeps a name in another language as the surer reading wrote it, accents and all', () => {
    // PaddleOCR's model writes no accents; a French name tesseract read surely keeps them.
    expect(
      mergeNames(
        { text: 'CAFÉ DES ARTISTES', confidence: 0.9 },
        { text: 'CAFE DES ARTISTES', confidence: 0.8 },
      ),
    ).toBe('CAFÉ DES ARTISTES')
  })

  it('takes the accents the less sure reading read where the surer one read the same letters without them', () => {
    // The German model reads "ä" and "ü"; PaddleOCR read them bare and was surer of the line.
    expect(
      mergeNames(
        { text: 'Getränke Kühne GmbH & Co. KG', confidence: 0.93 },
        { text: 'Getranke Kuhne GmbH & Co.KG', confidence: 0.95 },
      ),
    ).toBe('Getränke Kühne GmbH & Co. KG')
  })

  it('merges nothing when the two readings are of different lines', () => {
    // 008.jpg: tesseract took the shop's name, PaddleOCR a supplier's line.
    expect(
      mergeNames(
        { text: 'PERNIAGAAN ZHENG HUI', confidence: 0.65 },
        { text: 'GOGIANT ENGINEERING (M) SDN BHD', confidence: 0.64 },
      ),
    ).toBeNull()
  })
})
