import { type KeyboardEvent, type ReactNode, useId } from 'react'
import type { LoadState } from '../../lib/use-load'
import { Button } from './index'
import { LoadError, Skeleton } from './load-state'

export interface Column<T> {
  key: string
  header: ReactNode
  render(row: T): ReactNode
  width?: string
  align?: 'left' | 'right'
  /**
   * In a `fixed` table, a lower-priority column, hidden when the table is narrower than its breakpoint (a
   * container query on the table's own width, so a collapsed or open sidebar counts): `medium` below 1000 px, `narrow` below 760 px,
   * `wide` (shown only on wide tables) below 1280 px.
   */
  hideBelow?: 'narrow' | 'medium' | 'wide'
}

/** A cell's text on one line, cut with an ellipsis when the column is narrower; the whole text in its tooltip. */
export function Clipped({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <span className="cell-clip" title={text}>
      {children ?? text}
    </span>
  )
}

/** What the table body shows instead of rows: a failure, a skeleton, or the empty message. */
function tableNotice(load: LoadState | undefined, empty: ReactNode, hasRows: boolean): ReactNode {
  if (load?.status === 'failed') return <LoadError state={load} />
  if (load?.status === 'loading') return <Skeleton rows={3} />
  return hasRows ? null : empty
}

const hiddenClass = (column: Column<unknown>) =>
  column.hideBelow ? `hide-below-${column.hideBelow}` : undefined

/**
 * A plain data table: header, rows, and an empty message that says what to do. With `load`, a running or failed
 * request shows as such, never as the empty message. It scrolls sideways rather than clipping in a narrow window.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  empty,
  label,
  load,
  fixed,
}: {
  columns: Column<T>[]
  rows: T[]
  rowKey(row: T): string
  empty: ReactNode
  label: string
  load?: LoadState
  /** Columns keep the widths given them and the rest share what is left: the table never scrolls sideways. */
  fixed?: boolean
}) {
  const notice = tableNotice(load, empty, rows.length > 0)
  return (
    <div className={fixed ? 'table-wrap table-wrap-fixed' : 'table-wrap'}>
      <table className={fixed ? 'table table-fixed' : 'table'} aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                className={hiddenClass(column)}
                style={{ width: column.width, textAlign: column.align }}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {notice !== null ? (
            <tr>
              <td colSpan={columns.length} className="table-empty">
                {notice}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.key} className={hiddenClass(column)} style={{ textAlign: column.align }}>
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  )
}

/** Page controls for `{items, total, page, size}` lists. */
export function Pager({
  page,
  size,
  total,
  onPage,
}: {
  page: number
  size: number
  total: number
  onPage(page: number): void
}) {
  const pages = Math.max(1, Math.ceil(total / size))
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted">
        {total === 0 ? '' : `${(page - 1) * size + 1}–${Math.min(page * size, total)} of ${total}`}
      </span>
      <Button variant="ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ‹ Previous
      </Button>
      <span>
        Page {page} of {pages}
      </span>
      <Button variant="ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next ›
      </Button>
    </nav>
  )
}

/**
 * A tab list: arrow keys, Home and End move between tabs (roving focus). With `children`, the active panel is
 * rendered as the tabpanel the tabs control (`aria-controls`).
 */
export function Tabs<K extends string>({
  tabs,
  active,
  onChange,
  label,
  children,
}: {
  tabs: { key: K; label: string }[]
  active: K
  onChange(key: K): void
  label: string
  children?: ReactNode
}) {
  const base = useId()
  const panelId = `${base}-panel`
  const tabId = (key: K) => `${base}-tab-${key}`
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((tab) => tab.key === active)
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1
    const target = tabs[next]
    if (!target) return
    event.preventDefault()
    onChange(target.key)
    document.getElementById(tabId(target.key))?.focus()
  }
  const hasPanel = children !== undefined
  return (
    <>
      <div className="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            id={tabId(tab.key)}
            type="button"
            role="tab"
            aria-selected={tab.key === active}
            aria-controls={hasPanel && tab.key === active ? panelId : undefined}
            tabIndex={tab.key === active ? 0 : -1}
            className={tab.key === active ? 'tab active' : 'tab'}
            onClick={() => onChange(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {hasPanel ? (
        <div role="tabpanel" id={panelId} aria-labelledby={tabId(active)} className="tab-panel">
          {children}
        </div>
      ) : null}
    </>
  )
}

export const formatTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—'
