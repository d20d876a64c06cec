/**
 * `round_half_up(price * commission_rate)`, exact: the rate is read as the decimal it prints as, so
 * 0.15 * 10 is 1.5 -> 2 and never 1.4999... -> 1.
 */
export function platformFee(price: number, commissionRate: number): number {
  const text = commissionRate.toString().includes('e')
    ? commissionRate.toFixed(20).replace(/0+$/, '')
    : commissionRate.toString()
  const [whole = '0', fraction = ''] = text.split('.')
  const numerator = BigInt(whole + fraction)
  const denominator = 10n ** BigInt(fraction.length)
  return Number((2n * BigInt(price) * numerator + denominator) / (2n * denominator))
}
