import { afterAll, describe, expect, it } from 'vitest'
import { receiptImage } from '../../../test/helpers/document-recognition/receipt-image'
import type { PageWord } from '../page-text'
import { OcrEngine } from './ocr'
import { documentLanguage } from './ocr-language'

const wordsOf = (text: string): PageWord[] =>
  text.split(/\s+/u).map((t) => ({ text: t, bbox: [0, 0, 0.1, 0.1], confidence: 0.9 }))

describe('the language a page is read in', () => {
  it('names the language whose marker words an English reading holds, and English otherwise', () => {
    expect(
      documentLanguage([
        wordsOf('Summe EUR 12,40 Gegeben Bar 20,00 Rückgeld 7,60 Vielen Dank für Ihren Einkauf'),
      ]),
    ).toBe('deu')
    expect(documentLanguage([wordsOf('Kopā EUR 4,15 PVN 21% Samaksai Karte Paldies par pirkumu')])).toBe(
      'lav',
    )
    expect(documentLanguage([wordsOf('TOTAL TTC 23,90 TVA 20% Espèces Rendu Merci de votre visite')])).toBe(
      'fra',
    )
    expect(
      documentLanguage([wordsOf('TOTAL 23,90 Efectivo Cambio Gracias por su compra Factura simplificada')]),
    ).toBe('spa')
    expect(documentLanguage([wordsOf('TOTAL 9.00 CASH 10.00 CHANGE 1.00 THANK YOU PLEASE COME AGAIN')])).toBe(
      'eng',
    )
    // Malay and a lone marker word decide nothing: the English model reads the page.
    expect(documentLanguage([wordsOf('TERIMA KASIH SILA DATANG LAGI JUMLAH 9.00 di')])).toBe('eng')
  })

  const engine = new OcrEngine()
  afterAll(() => engine.close())

  it('reads a German receipt with the German model: its umlauts and ß come back as printed', async () => {
    const image = await receiptImage([
      'Bäckerei Müller GmbH',
      'Hauptstraße 12, 80331 München',
      'Brötchen 6 Stück          2,40',
      'Käsekuchen                3,90',
      'Summe EUR                 6,30',
      'Gegeben Bar              10,00',
      'Rückgeld                  3,70',
      'Vielen Dank für Ihren Einkauf!',
    ])
    const text = (await engine.recognise(image)).map((w) => w.text).join(' ')
    expect(text).toContain('Bäckerei')
    expect(text).toContain('Müller')
    expect(text).toContain('Hauptstraße')
    expect(text).toContain('Rückgeld')
  }, 90_000)
})
