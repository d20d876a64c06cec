import type { PageQuery } from './common.schemas'

export interface PageResult<T> {
  items: T[]
  total: number
  page: number
  size: number
}

/** LIMIT/OFFSET for a page query. */
export function pageWindow(query: PageQuery): { limit: number; offset: number } {
  return { limit: query.size, offset: (query.page - 1) * query.size }
}

export function toPage<T>(items: T[], total: number, query: PageQuery): PageResult<T> {
  return { items, total, page: query.page, size: query.size }
}
