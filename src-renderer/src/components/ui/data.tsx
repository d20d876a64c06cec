import type { ReactNode } from 'react'
import { Button } from './index'

export interface Column<T> {
  key: string
  header: ReactNode
  render(row: T): ReactNode
  width?: string
  align?: 'left' | 'right'
}

/** A plain data table: header, rows, and an empty message that says what to do. */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  empty,
  label,
}: {
  columns: Column<T>[]
  rows: T[]
  rowKey(row: T): string
  empty: ReactNode
  label: string
}) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} style={{ width: column.width, textAlign: column.align }}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="table-empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.key} style={{ textAlign: column.align }}>
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
        {total === 0 ? 'Nothing yet' : `${(page - 1) * size + 1}–${Math.min(page * size, total)} of ${total}`}
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

export function Tabs<K extends string>({
  tabs,
  active,
  onChange,
  label,
}: {
  tabs: { key: K; label: string }[]
  active: K
  onChange(key: K): void
  label: string
}) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === active}
          className={tab.key === active ? 'tab active' : 'tab'}
          onClick={() => onChange(tab.key)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}

export const formatTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—'
