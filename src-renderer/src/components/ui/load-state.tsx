import type { ReactNode } from 'react'
import type { LoadState } from '../../lib/use-load'
import { Button } from './index'

/** Grey bars in the shape of what is coming, announced as busy. */
export function Skeleton({ rows = 4, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div className="skeleton" role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity.
        <span key={index} className="skeleton-bar" />
      ))}
    </div>
  )
}

/** A failed load in the server's words, with a Retry that stays until a retry succeeds. */
export function LoadError({ state }: { state: LoadState }) {
  return (
    <div className="load-error" role="alert">
      <p>
        <strong>This could not be loaded.</strong> {state.error}
      </p>
      <Button busy={state.retrying} onClick={state.retry}>
        Retry
      </Button>
    </div>
  )
}

/**
 * Loading, failed, empty or the content: never an empty state for a failure or a request still running.
 * `empty` is shown when the load succeeded and `isEmpty` is true.
 */
export function Loadable({
  state,
  isEmpty = false,
  empty,
  rows,
  children,
}: {
  state: LoadState
  isEmpty?: boolean
  empty?: ReactNode
  rows?: number
  children: ReactNode
}) {
  if (state.status === 'failed') return <LoadError state={state} />
  if (state.status === 'loading') return <Skeleton rows={rows} />
  if (isEmpty && empty) return <>{empty}</>
  return <>{children}</>
}
