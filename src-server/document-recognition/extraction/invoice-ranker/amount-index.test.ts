import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../../../test/helpers/document-recognition/generated-invoices'
import { AmountIndex, NEIGHBOURS, sumsAmongNeighbours, toCents } from './amount-index'
import type { ValueCandidate } from './candidates'

/** Amounts as the index reads them: only their values matter to it. */
const amounts = (values: number[]) => values.map((value) => ({ value }) as ValueCandidate)

/** The sums an amount takes part in, by comparing it with every other amount of the list. */
function comparedWithAll(all: number[], place: number, discounts: Set<number>) {
  const own = toCents(all[place] as number)
  const others = all.filter((_, i) => i !== place)
  const cents = new Set(others.filter((v) => v !== 0).map(toCents))
  return {
    sumOfTwo: [...cents].some(
      (a) =>
        Math.abs(a) <= Math.abs(own) &&
        a !== own - a &&
        cents.has(own - a) &&
        Math.abs(a) >= Math.abs(own - a),
    ),
    partOfSum: [...cents].some((total) => Math.abs(total) > Math.abs(own) && cents.has(total - own)),
    beforeDiscount: all.some((d, i) => {
      if (i === place || d === 0 || !discounts.has(i)) return false
      const left = Math.abs(own) - Math.abs(toCents(d))
      return cents.has(left) || cents.has(-left)
    }),
  }
}

describe('the amount index', () => {
  it('finds the sums each amount of an invoice takes part in exactly as comparing it with every other amount', () => {
    const random = seededRandom(7)
    for (let round = 0; round < 40; round++) {
      // Small amounts, some negative, zeros and copies, so that many of them make sums.
      const values = Array.from({ length: 5 + Math.floor(random() * 60) }, () =>
        random() < 0.1 ? 0 : Math.round((random() - 0.2) * 4000) / 100,
      )
      values.unshift(12.34, 5.67)
      values.push(12.34 + 5.67)
      const discounts = new Set(values.flatMap((_, i) => (random() < 0.15 ? [i] : [])))
      const list = amounts(values)
      const sums = sumsAmongNeighbours(list, (c) => discounts.has(list.indexOf(c)))
      values.forEach((_, place) => {
        expect(sums[place]).toEqual(comparedWithAll(values, place, discounts))
      })
      expect(sums.at(-1)?.sumOfTwo).toBe(true)
      expect(sums[1]?.partOfSum).toBe(true)
    }
  })

  it("counts no figure too long for exact cents in a sum: an account number's digits make no amount a part of one", () => {
    // An IBAN's digits read as one figure, beside a total, its withholding and the net to pay.
    const values = [542811101000000140000, 6788.08, -1070, 5718.08]
    const sums = sumsAmongNeighbours(amounts(values), () => false)
    expect(sums.map((s) => s.partOfSum)).toEqual([false, false, true, false])
    expect(sums[0]).toEqual({ sumOfTwo: false, partOfSum: false, beforeDiscount: false })
  })

  it('looks for a sum among the amounts printed near it only: on a long statement, parts far away do not count', () => {
    const filler = Array.from({ length: NEIGHBOURS }, (_, i) => 1000 + i * 7)
    const near = [...filler.slice(0, NEIGHBOURS - 2), 10, 20, 30]
    const far = [10, 20, ...filler, 30]
    expect(sumsAmongNeighbours(amounts(near), () => false).at(-1)?.sumOfTwo).toBe(true)
    expect(sumsAmongNeighbours(amounts(far), () => false).at(-1)?.sumOfTwo).toBe(false)
  })

  it('finds another amount near a value exactly at the tolerance its test draws, where rounding hides it from a plain search', () => {
    // 3.05e19 and the same value again: nothing lies between them and a search's bounds within a cent of them.
    const index = new AmountIndex(amounts([30507500940000047000, 30507500940000047000, 1.5]))
    expect(
      index.someOtherNear(0, 30507500940000047000, 0.015, (v) => Math.abs(v - 30507500940000047000) < 0.015),
    ).toBe(true)
    expect(index.someOtherNear(2, 1.5, 0.015, (v) => Math.abs(v - 1.5) < 0.015)).toBe(false)
    expect(index.magnitudesAbove(1.5)).toBe(1)
    expect(index.printedByOther(150, 2)).toBe(false)
    expect(index.printedByOther(toCents(30507500940000047000), 0)).toBe(true)
  })
})
