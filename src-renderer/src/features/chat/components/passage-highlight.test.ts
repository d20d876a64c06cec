import { describe, expect, it } from 'vitest'
import { passagePieces } from './passage-highlight'

const page = [
  'Annual report 2025',
  'The Normans were the people who',
  ' in the 10th and 11th centuries gave',
  'their name to Normandy, a region in France.',
  'They were descended from Norse raiders.',
  'Page 5',
]

describe('passagePieces', () => {
  it('marks the pieces holding the passage, whatever the spacing, line breaks and case', () => {
    const passage =
      'the Normans were the people who in the 10th and\n11th centuries   gave their name to NORMANDY'
    expect(passagePieces(page, passage)).toEqual([1, 2, 3])
  })

  it('matches ligatures and full-width forms as their plain letters', () => {
    expect(passagePieces(['A ﬁnal ﬁgure', 'of ＡＢＣ'], 'final figure of ABC')).toEqual([0, 1])
  })

  it('marks the beginning of a passage that runs on to the next page', () => {
    const passage = 'They were descended from Norse raiders. Their leader Rollo swore fealty to the king.'
    expect(passagePieces(page, passage)).toEqual([4])
  })

  it('marks the end of a passage that began on the previous page', () => {
    const passage = 'Before them the land was Neustria; the Normans were the people who in the 10th'
    expect(passagePieces(page, passage)).toEqual([1, 2])
  })

  it('marks nothing when the passage is not on the page, or only a few chance letters are', () => {
    expect(passagePieces(page, 'Quarterly revenue rose by twelve percent in the northern region')).toEqual([])
    expect(passagePieces(page, 'the people ate cake')).toEqual([])
    expect(passagePieces(page, '   ')).toEqual([])
    expect(passagePieces([], 'The Normans')).toEqual([])
  })
})
