import { downloadName } from './download-name'

/** Hands a fetched file to the browser as a download, under the server's name for it or `fallbackName`. */
export async function saveDownload(response: Response, fallbackName: string): Promise<void> {
  const url = URL.createObjectURL(await response.blob())
  const link = Object.assign(document.createElement('a'), {
    href: url,
    download: downloadName(response) ?? fallbackName,
  })
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
