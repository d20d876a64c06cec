import { useEffect } from 'react'
import { create } from 'zustand'

/** Conversations waiting for a person, counted in every title so an operator sees them from any tab or window. */
export const useTitleCount = create<{ count: number }>(() => ({ count: 0 }))

/** The window title names the screen (and the thing open in it), so tabs, history and task switchers say where. */
export function useDocumentTitle(...parts: (string | null | undefined)[]) {
  const count = useTitleCount((state) => state.count)
  const title = `${count > 0 ? `(${count}) ` : ''}${[...parts.filter(Boolean), 'Switchboard'].join(' · ')}`
  useEffect(() => {
    document.title = title
  }, [title])
}
