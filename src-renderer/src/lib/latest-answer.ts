/**
 * Keeps only the answer to the newest request of each list a store reads: a user who moves on (another agent,
 * dataset or listing), or a re-read crossing that move, never sees an answer for what they left, whichever
 * answer arrives last.
 */
export function latestAnswers<List extends string>() {
  const latest = new Map<List, number>()
  /** Hands what `read` answers to `keep`, unless a newer request for the same list started meanwhile. */
  return async function take<T>(list: List, read: () => Promise<T>, keep: (answer: T) => void) {
    const mine = (latest.get(list) ?? 0) + 1
    latest.set(list, mine)
    const answer = await read()
    if (latest.get(list) === mine) keep(answer)
  }
}
