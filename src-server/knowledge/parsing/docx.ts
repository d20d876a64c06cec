import { bytesSource } from './byte-source'
import { readZipEntries, zipGuardReason } from './zip-guard'

/** The text of a .docx (mammoth), refused before mammoth inflates it when the zip guard finds a bomb. */
export async function extractDocxText(bytes: Uint8Array): Promise<string> {
  const source = bytesSource(bytes)
  const entries = await readZipEntries(source)
  if (!entries) throw new Error('The .docx file is not a readable ZIP archive.')
  const bomb = await zipGuardReason(source, entries)
  if (bomb) throw new Error(`The .docx file was refused because ${bomb}.`)
  // Loaded with the first .docx, on the worker, never by importing this module (the request thread imports it
  // through parsing's index for the MIME table).
  const { default: mammoth } = await import('mammoth')
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes) })
    return result.value
  } catch (error) {
    throw new Error(`The .docx file cannot be read: ${(error as Error).message}`)
  }
}
