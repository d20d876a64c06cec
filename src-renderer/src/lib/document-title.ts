import { useEffect } from 'react'

/** The window title names the screen (and the thing open in it), so tabs, history and task switchers say where. */
export function useDocumentTitle(...parts: (string | null | undefined)[]) {
  const title = [...parts.filter(Boolean), 'Switchboard'].join(' · ')
  useEffect(() => {
    document.title = title
  }, [title])
}
