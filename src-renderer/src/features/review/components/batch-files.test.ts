import { describe, expect, it } from 'vitest'
import { type BatchFile, droppedFiles, MAX_BATCH_FILES, sortBatch } from './batch-files'

const file = (path: string, type: string): BatchFile => ({
  path,
  file: new File(['x'], path.split('/').at(-1) ?? path, { type }),
})

describe('sorting a folder into a batch', () => {
  it('takes PDFs and images in path order and lists the rest as skipped, with why', () => {
    const sorted = sortBatch([
      file('march/b.pdf', 'application/pdf'),
      file('march/notes.txt', 'text/plain'),
      file('march/scans/a.jpg', 'image/jpeg'),
      // A type the browser left empty: the name's ending decides.
      file('march/scans/c.TIF', ''),
      file('march/readme', ''),
    ])
    expect(sorted.accepted.map((f) => f.path)).toEqual([
      'march/b.pdf',
      'march/scans/a.jpg',
      'march/scans/c.TIF',
    ])
    expect(sorted.skipped).toEqual([
      { path: 'march/notes.txt', reason: 'not a PDF or an image' },
      { path: 'march/readme', reason: 'not a PDF or an image' },
    ])
  })

  it('stops at the cap and lists the files past it as skipped', () => {
    const many = Array.from({ length: MAX_BATCH_FILES + 3 }, (_, i) =>
      file(`scans/${String(i).padStart(4, '0')}.png`, 'image/png'),
    )
    const sorted = sortBatch(many)
    expect(sorted.accepted).toHaveLength(MAX_BATCH_FILES)
    expect(sorted.skipped.map((s) => s.path)).toEqual(['scans/0200.png', 'scans/0201.png', 'scans/0202.png'])
    expect(sorted.skipped[0]?.reason).toBe(`over the ${MAX_BATCH_FILES}-file limit`)
  })
})

/**
 * A dropped folder as the browser's entry API hands it over (Chromium reads a folder in chunks of 100 entries).
 * A real folder drop cannot be driven in the e2e browser (its dropped folders read as EncodingError), so the walk
 * over the entry API is checked here against that API's shape.
 */
function folderEntry(fullPath: string, children: FileSystemEntry[], chunk = 2): FileSystemEntry {
  return {
    isFile: false,
    isDirectory: true,
    fullPath,
    createReader() {
      let next = 0
      return {
        readEntries(done: (entries: FileSystemEntry[]) => void) {
          const part = children.slice(next, next + chunk)
          next += chunk
          queueMicrotask(() => done(part))
        },
      }
    },
  } as unknown as FileSystemEntry
}
const fileEntry = (fullPath: string, type: string): FileSystemEntry =>
  ({
    isFile: true,
    isDirectory: false,
    fullPath,
    file(done: (file: File) => void) {
      queueMicrotask(() => done(new File(['x'], fullPath.split('/').at(-1) ?? '', { type })))
    },
  }) as unknown as FileSystemEntry
const transferOf = (items: ({ entry: FileSystemEntry } | { file: File })[]) =>
  ({
    items: items.map((item) => ({
      kind: 'file',
      webkitGetAsEntry: () => ('entry' in item ? item.entry : null),
      getAsFile: () => ('file' in item ? item.file : null),
    })),
  }) as unknown as DataTransfer

describe('the files of a drop', () => {
  it('opens dropped folders recursively, reading every chunk, beside files dropped on their own', async () => {
    const folder = folderEntry('/march', [
      fileEntry('/march/a.pdf', 'application/pdf'),
      fileEntry('/march/notes.txt', 'text/plain'),
      folderEntry('/march/scans', [fileEntry('/march/scans/b.jpg', 'image/jpeg')]),
      fileEntry('/march/c.png', 'image/png'),
    ])
    const loose = new File(['x'], 'loose.pdf', { type: 'application/pdf' })
    const found = await droppedFiles(transferOf([{ entry: folder }, { file: loose }]))
    expect(found.map((f) => f.path)).toEqual([
      'march/a.pdf',
      'march/notes.txt',
      'march/scans/b.jpg',
      'march/c.png',
      'loose.pdf',
    ])
    expect(found.at(-1)?.file).toBe(loose)
    expect(sortBatch(found).skipped).toEqual([{ path: 'march/notes.txt', reason: 'not a PDF or an image' }])
  })
})
