/** How long a session has waited for a person, as the inbox says it (never negative if clocks disagree). */
export function waitingText(since: string, now: number) {
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000))
  if (minutes < 1) return 'waiting <1 min'
  if (minutes < 60) return `waiting ${minutes} min`
  const hours = Math.floor(minutes / 60)
  return `waiting ${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`
}
