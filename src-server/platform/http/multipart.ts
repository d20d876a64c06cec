import { format, parse } from 'content-disposition'

/**
 * The file name a client gave a multipart part, as the user typed it. Browsers escape `"`, CR and LF in it as %22,
 * %0D and %0A (WHATWG HTML, multipart/form-data) and busboy hands the escapes on unread; content-disposition's
 * multipart reading turns them back. busboy keeps the raw header to itself, so its value is re-quoted first.
 */
export function multipartFileName(busboyFileName: string): string {
  const header = format({ type: 'form-data', parameters: { filename: busboyFileName } }, { multipart: true })
  return parse(header, { multipart: true }).parameters.filename ?? busboyFileName
}
