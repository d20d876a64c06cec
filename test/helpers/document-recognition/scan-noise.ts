import sharp from 'sharp'
import { seededRandom } from './generated-invoices'

/** Gaussian grain around mid grey (mean 128, sigma 18), the same for every page of a size on every run. */
function grainOf(width: number, height: number): Buffer {
  // Seeded: the same grain on every run, so two runs read the same pixels.
  const random = seededRandom(width * 65_537 + height)
  const pixels = Buffer.alloc(width * height * 3)
  for (let i = 0; i < pixels.length; i += 2) {
    // Box-Muller: two independent normal values from two uniform ones.
    const radius = Math.sqrt(-2 * Math.log(1 - random()))
    const angle = 2 * Math.PI * random()
    pixels[i] = Math.max(0, Math.min(255, Math.round(128 + 18 * radius * Math.cos(angle))))
    if (i + 1 < pixels.length)
      pixels[i + 1] = Math.max(0, Math.min(255, Math.round(128 + 18 * radius * Math.sin(angle))))
  }
  return pixels
}

/** Scan noise for the OCR path: a slight blur, grey paper and gaussian grain (seeded: runs are comparable). */
export async function noisy(image: Buffer): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(image).metadata()
  const grain = await sharp(grainOf(width, height), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer()
  return sharp(image)
    .blur(0.6)
    .composite([{ input: grain, blend: 'soft-light' }])
    .linear(0.92, 8)
    .png()
    .toBuffer()
}
