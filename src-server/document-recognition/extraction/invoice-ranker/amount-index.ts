import type { ValueCandidate } from './candidates'
import { oncePer } from './memo'

export const toCents = (value: number) => Math.round(value * 100)

/** The first place in `sorted` (ascending) whose value is above `value`, or at least `value` when `orEqual`. */
function firstPlace(sorted: ArrayLike<number>, value: number, orEqual: boolean): number {
  let [low, high] = [0, sorted.length]
  while (low < high) {
    const middle = (low + high) >>> 1
    const at = sorted[middle] as number
    if (at < value || (!orEqual && at === value)) low = middle + 1
    else high = middle
  }
  return low
}

/** Does a value of `sorted` (ascending) from `from` to `to`, both included, pass `test`? The first that does ends the search. */
export function someWithin(
  sorted: ArrayLike<number>,
  from: number,
  to: number,
  test: (value: number, place: number) => boolean,
): boolean {
  const end = firstPlace(sorted, to, false)
  for (let place = firstPlace(sorted, from, true); place < end; place++)
    if (test(sorted[place] as number, place)) return true
  return false
}

/** How much wider than a caller's tolerance a search looks, so that rounding never hides a value its exact test takes. */
const SLACK = 0.01

/**
 * How many amounts either side of an amount, in reading order, the amounts it makes a sum with are looked for
 * among: all of an invoice's (the longest real ones print a few hundred), a page or two of a long statement's. A
 * statement's thousands of amounts each compared with all the others took minutes; so the work grows with the
 * document's length, not with its square.
 */
export const NEIGHBOURS = 500

/**
 * A document's amounts (one kind's candidates), sorted and counted once. Each amount's features ask which other
 * amounts are near it or are a tax on it: a search each, not a comparison with every other amount.
 */
export class AmountIndex {
  /** The amounts' values, in the document's order. */
  readonly values: number[]
  /** Each candidate's place in that order. */
  private readonly places = new Map<ValueCandidate, number>()
  /** The places in ascending order of value, and their values. */
  private readonly ascending: number[]
  private readonly ascendingValues: Float64Array
  /** How many amounts print each value in cents (zeros aside), and those values ascending. */
  private readonly centsCounts = new Map<number, number>()
  private readonly cents: number[]
  /** The distinct magnitudes, ascending. */
  readonly magnitudes: number[]

  constructor(all: ValueCandidate[]) {
    this.values = all.map((c) => c.value as number)
    all.forEach((c, place) => {
      this.places.set(c, place)
    })
    this.ascending = this.values.map((_, place) => place).sort((a, b) => this.value(a) - this.value(b))
    this.ascendingValues = Float64Array.from(this.ascending, (place) => this.value(place))
    for (const value of this.values)
      if (value !== 0) this.centsCounts.set(toCents(value), (this.centsCounts.get(toCents(value)) ?? 0) + 1)
    this.cents = [...this.centsCounts.keys()].sort((a, b) => a - b)
    this.magnitudes = [...new Set(this.values.map(Math.abs))].sort((a, b) => a - b)
  }

  private value(place: number): number {
    return this.values[place] as number
  }

  placeOf(candidate: ValueCandidate): number {
    return this.places.get(candidate) as number
  }

  /** How many distinct magnitudes are larger than `magnitude`. */
  magnitudesAbove(magnitude: number): number {
    return this.magnitudes.length - firstPlace(this.magnitudes, magnitude, false)
  }

  /**
   * Does another amount than the one at `place`, within `radius` of `center`, pass `test`? The search looks a little
   * wider than `radius`: `test`, exact to the last bit, decides.
   */
  someOtherNear(place: number, center: number, radius: number, test: (value: number) => boolean): boolean {
    return someWithin(
      this.ascendingValues,
      center - radius - SLACK,
      center + radius + SLACK,
      (value, at) => this.ascending[at] !== place && test(value),
    )
  }

  /** Is `cents` the value of an amount other than the one at `place`? */
  printedByOther(cents: number, place: number): boolean {
    const own = this.value(place)
    const self = own !== 0 && toCents(own) === cents ? 1 : 0
    return (this.centsCounts.get(cents) ?? 0) > self
  }

  /** Does a value in cents from `from` to `to` (either order, and a cent wider) pass `test`? */
  someCentsBetween(from: number, to: number, test: (cents: number) => boolean): boolean {
    return someWithin(this.cents, Math.min(from, to) - 1, Math.max(from, to) + 1, test)
  }
}

/** The index of a document's amounts: built for the first amount's features. */
export const amountIndexOf = oncePer((all: ValueCandidate[]) => new AmountIndex(all))

/** The sums an amount takes part in, among its `NEIGHBOURS`. */
export interface AmountSums {
  /** It is the sum of two other amounts, itself the larger's at most twice. */
  sumOfTwo: boolean
  /** Another amount and it make a third, larger one. */
  partOfSum: boolean
  /** Less an amount `isDiscount` takes, it is another amount. */
  beforeDiscount: boolean
}

/**
 * Each amount's sums, in the document's order, with the amounts printed in the window of `NEIGHBOURS` either side
 * of it: the window slides along the document, its values in cents counted as they enter and leave.
 */
export function sumsAmongNeighbours(
  all: ValueCandidate[],
  isDiscount: (candidate: ValueCandidate) => boolean,
): AmountSums[] {
  // A figure too long to count in cents exactly (an account number's digits) is in no sum: less any amount, it
  // would still equal itself.
  const cents = all.map((c) => {
    const value = toCents(c.value as number)
    return value === 0 || !Number.isSafeInteger(value) ? null : value
  })
  const discounts = all.map(isDiscount)
  const counts = new Map<number, number>()
  const count = (place: number, by: number) => {
    const value = cents[place]
    if (value != null) counts.set(value, (counts.get(value) ?? 0) + by)
  }
  let [first, last] = [0, -1]
  return all.map((candidate, place) => {
    const [from, to] = [Math.max(0, place - NEIGHBOURS), Math.min(all.length - 1, place + NEIGHBOURS)]
    while (last < to) count(++last, 1)
    while (first < from) count(first++, -1)
    const own = toCents(candidate.value as number)
    const self = cents[place]
    const printed = (value: number) => (counts.get(value) ?? 0) > (self === value ? 1 : 0)
    const sums: AmountSums = { sumOfTwo: false, partOfSum: false, beforeDiscount: false }
    if (!Number.isSafeInteger(own)) return sums
    for (let other = from; other <= to; other++) {
      const value = cents[other]
      if (other === place || value == null) continue
      const rest = own - value
      sums.sumOfTwo ||=
        Math.abs(value) <= Math.abs(own) &&
        value !== rest &&
        printed(rest) &&
        Math.abs(value) >= Math.abs(rest)
      sums.partOfSum ||= Math.abs(value) > Math.abs(own) && printed(value - own)
      if (!sums.beforeDiscount && discounts[other]) {
        const left = Math.abs(own) - Math.abs(value)
        sums.beforeDiscount = printed(left) || printed(-left)
      }
      if (sums.sumOfTwo && sums.partOfSum && sums.beforeDiscount) break
    }
    return sums
  })
}
