import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from './api-client'

/**
 * The three states every list and detail shows. A failure keeps its message until a retry succeeds, so a
 * slow or failing request never looks like an empty list.
 */
export interface LoadState {
  status: 'loading' | 'failed' | 'ready'
  /** The server's words for the last failure; null once a load succeeded. */
  error: string | null
  /** A retry is running while the error stays on screen. */
  retrying: boolean
  retry(): void
}

export const errorMessage = (caught: unknown, fallback = 'The request failed.') =>
  caught instanceof ApiError ? caught.message : fallback

/** Runs `load` on mount and whenever `deps` change; `retry` runs it again. The data itself lives where `load` puts it. */
export function useLoad(load: () => Promise<unknown>, deps: DependencyList): LoadState {
  const [status, setStatus] = useState<LoadState['status']>('loading')
  const [error, setError] = useState<string | null>(null)
  const [retrying, setRetrying] = useState(false)
  const generation = useRef(0)
  const latest = useRef(load)
  latest.current = load
  const run = useCallback(async (isRetry: boolean) => {
    const mine = ++generation.current
    if (isRetry) setRetrying(true)
    else {
      setStatus('loading')
      setError(null)
    }
    try {
      await latest.current()
      if (mine !== generation.current) return
      setStatus('ready')
      setError(null)
    } catch (caught) {
      if (mine !== generation.current) return
      setStatus('failed')
      setError(errorMessage(caught, 'This could not be loaded.'))
    } finally {
      if (mine === generation.current) setRetrying(false)
    }
  }, [])
  const start = () => {
    void run(false)
    return () => {
      generation.current++
    }
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on.
  useEffect(start, deps)
  return { status, error, retrying, retry: () => void run(true) }
}
