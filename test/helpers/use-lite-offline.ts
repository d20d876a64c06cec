/**
 * Run by `use-lite.test.ts` in a child process preloaded with `no-network.cjs`: checks the network is really
 * blocked, then loads Universal Sentence Encoder Lite on its worker thread and embeds three sentences. Prints one
 * JSON line.
 */
import { createUseLiteEmbedder } from '../../src-server/ai/embeddings/use-lite-embedder'
import { probeNetwork } from './offline'

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, value, i) => sum + value * (b[i] as number), 0)

const probe = await probeNetwork()
const [normans, paraphrase, unrelated] = await createUseLiteEmbedder().embed([
  'The Normans conquered England in 1066.',
  'In 1066 England was conquered by the Normans.',
  'Photosynthesis turns sunlight into sugar in green leaves.',
])
if (!normans || !paraphrase || !unrelated) throw new Error('missing vectors')
process.stdout.write(
  `${JSON.stringify({
    probe,
    dim: normans.length,
    norm: Math.sqrt(cosine(normans, normans)),
    related: cosine(normans, paraphrase),
    unrelated: cosine(normans, unrelated),
  })}\n`,
)
process.exit(0)
