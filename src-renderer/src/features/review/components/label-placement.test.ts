import { describe, expect, it } from 'vitest'
import { placeLabels, type Rect } from './label-placement'

const PAGE = { width: 400, height: 400 }
const label = (id: string, box: Rect) => ({ id, box, width: 60, height: 14 })

describe('placing field names beside their values', () => {
  it('goes above the value when nothing is there', () => {
    const spots = placeLabels([label('total', [100, 100, 160, 114])], PAGE)
    expect(spots.get('total')).toEqual([100, 82, 160, 96])
  })

  it('leaves printed words uncovered where a free spot beside the value allows', () => {
    // "Total Sales" printed just above the amount: the name goes below it instead.
    const printed: Rect[] = [[90, 84, 170, 98]]
    const spots = placeLabels([label('total', [100, 100, 160, 114])], PAGE, printed)
    expect(spots.get('total')).toEqual([100, 118, 160, 132])
  })

  it('leaves the name unplaced (hover and selection only) when every spot beside the value covers printed words', () => {
    // A tight receipt: words on the lines above and below and on both sides of the amount.
    const printed: Rect[] = [
      [0, 84, 400, 98],
      [0, 116, 400, 130],
      [0, 100, 98, 114],
      [162, 100, 400, 114],
    ]
    const spots = placeLabels([label('total', [100, 100, 160, 114])], PAGE, printed)
    expect(spots.get('total')).toBeNull()
  })
})
