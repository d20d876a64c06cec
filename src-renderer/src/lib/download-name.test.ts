import { create } from 'content-disposition'
import { describe, expect, it } from 'vitest'
import { downloadName } from './download-name'

const withDisposition = (header: string | null) =>
  new Response('x', { headers: header === null ? {} : { 'content-disposition': header } })

describe('download name', () => {
  it('reads the UTF-8 name over the ASCII fallback the server sends beside it', () => {
    const header = create('März Rechnung "Q1".pdf')
    expect(header).toContain('filename="M?rz')
    expect(downloadName(withDisposition(header))).toBe('März Rechnung "Q1".pdf')
    expect(downloadName(withDisposition(create('notes.txt', { type: 'inline' })))).toBe('notes.txt')
  })

  it('names nothing when the header is absent or malformed', () => {
    expect(downloadName(withDisposition(null))).toBeNull()
    expect(downloadName(withDisposition('attachment; filename="open'))).toBeNull()
  })
})
