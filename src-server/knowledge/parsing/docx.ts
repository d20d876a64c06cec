import mammoth from 'mammoth'
import { readZipEntries, zipBombReason } from './zip-guard'

/** The text of a .docx (mammoth), refused before inflation when its central directory looks like a zip bomb. */
export async function extractDocxText(bytes: Uint8Array): Promise<string> {
  const entries = readZipEntries(bytes)
  if (!entries) throw new Error('The .docx file is not a readable ZIP archive.')
  const bomb = zipBombReason(entries)
  if (bomb) throw new Error(`The .docx file was refused because ${bomb}.`)
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes) })
    return result.value
  } catch (error) {
    throw new Error(`The .docx file cannot be read: ${(error as Error).message}`)
  }
}
