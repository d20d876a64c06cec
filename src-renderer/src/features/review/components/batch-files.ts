/** The documents an upload takes, and how a picked or dropped folder is sorted into a batch. */
export const ACCEPT = 'application/pdf,image/png,image/jpeg,image/tiff,image/webp'
const ACCEPTED_TYPES = new Set(ACCEPT.split(','))
/** A folder's type is often left empty by the browser (a .tif on Linux): the name's ending decides then. */
const ACCEPTED_ENDINGS = /\.(pdf|png|jpe?g|tiff?|webp)$/i

/** A folder of thousands of files is not a batch anyone reviews: the rest are listed as skipped. */
export const MAX_BATCH_FILES = 200

/** A file of a batch, named by its path inside the picked or dropped folder ("march/inv-1.pdf"). */
export interface BatchFile {
  path: string
  file: File
}

export interface SortedBatch {
  accepted: BatchFile[]
  skipped: { path: string; reason: string }[]
}

const supported = (file: File) =>
  file.type ? ACCEPTED_TYPES.has(file.type) : ACCEPTED_ENDINGS.test(file.name)

/** Supported files in path order, up to the cap; the others, each with why it was left out. */
export function sortBatch(files: BatchFile[]): SortedBatch {
  const sorted: SortedBatch = { accepted: [], skipped: [] }
  for (const entry of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    if (!supported(entry.file)) sorted.skipped.push({ path: entry.path, reason: 'not a PDF or an image' })
    else if (sorted.accepted.length >= MAX_BATCH_FILES)
      sorted.skipped.push({ path: entry.path, reason: `over the ${MAX_BATCH_FILES}-file limit` })
    else sorted.accepted.push(entry)
  }
  return sorted
}

/** Picked files: a folder input names them by `webkitRelativePath`, a plain input by name. */
export const pickedFiles = (files: FileList | null): BatchFile[] =>
  [...(files ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }))

/** Every entry of a dropped folder: a reader hands them out in chunks until it returns none. */
async function entriesOf(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader()
  const all: FileSystemEntry[] = []
  for (;;) {
    const chunk = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    )
    if (chunk.length === 0) return all
    all.push(...chunk)
  }
}

/** The files under a dropped entry, recursively, stopping once a little more than the cap is gathered. */
async function filesUnder(entry: FileSystemEntry, found: BatchFile[], limit: number): Promise<void> {
  if (found.length >= limit) return
  const path = entry.fullPath.replace(/^\//, '')
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    )
    found.push({ path, file })
  } else if (entry.isDirectory)
    for (const child of await entriesOf(entry as FileSystemDirectoryEntry))
      await filesUnder(child, found, limit)
}

/**
 * The files of a drop, folders opened recursively. The entries must be taken while the drop event runs (the
 * browser empties its `dataTransfer` after), so this reads them first and awaits only then. An item without an
 * entry (a `DataTransfer` built by a script) is taken as the plain file it holds.
 */
export async function droppedFiles(transfer: DataTransfer): Promise<BatchFile[]> {
  const taken = [...transfer.items].flatMap((item): ({ entry: FileSystemEntry } | { plain: BatchFile })[] => {
    if (item.kind !== 'file') return []
    const entry = item.webkitGetAsEntry()
    const file = entry ? null : item.getAsFile()
    return entry ? [{ entry }] : file ? [{ plain: { path: file.name, file } }] : []
  })
  const found: BatchFile[] = []
  // Unsupported files count towards this too: up to five times the cap keeps a mixed folder's batch full.
  const limit = MAX_BATCH_FILES * 5
  for (const item of taken)
    if ('plain' in item) found.push(item.plain)
    else await filesUnder(item.entry, found, limit)
  return found
}
