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

/** One page of a list that is small enough to hold in memory (registries, a user's tokens). */
export function pageOf<T>(all: T[], query: PageQuery): PageResult<T> {
  const { limit, offset } = pageWindow(query)
  return toPage(all.slice(offset, offset + limit), all.length, query)
}
