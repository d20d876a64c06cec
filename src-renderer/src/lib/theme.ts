import { useEffect, useState } from 'react'

export type ThemeChoice = 'system' | 'light' | 'dark'

const storageKey = (userId: string | null) => `switchboard.theme.${userId ?? 'signed-out'}`
const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)')

function readChoice(userId: string | null): ThemeChoice {
  const stored = localStorage.getItem(storageKey(userId))
  return stored === 'light' || stored === 'dark' ? stored : 'system'
}

/**
 * The colour theme: the system's setting unless this user chose light or dark (kept per user in this browser).
 * The resolved theme is set as `data-theme` on <html>, where styles.css switches its colour variables.
 */
export function useTheme(userId: string | null) {
  const [choice, setChoice] = useState<ThemeChoice>(() => readChoice(userId))
  const [systemIsDark, setSystemIsDark] = useState(() => systemDark().matches)
  useEffect(() => setChoice(readChoice(userId)), [userId])
  useEffect(() => {
    const query = systemDark()
    const onChange = () => setSystemIsDark(query.matches)
    query.addEventListener('change', onChange)
    return () => query.removeEventListener('change', onChange)
  }, [])
  const resolved = choice === 'system' ? (systemIsDark ? 'dark' : 'light') : choice
  useEffect(() => {
    document.documentElement.dataset.theme = resolved
    document.documentElement.style.colorScheme = resolved
  }, [resolved])
  function choose(next: ThemeChoice) {
    if (next === 'system') localStorage.removeItem(storageKey(userId))
    else localStorage.setItem(storageKey(userId), next)
    setChoice(next)
  }
  return { choice, resolved, choose }
}
