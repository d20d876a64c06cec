import { afterAll, describe, expect, it } from 'vitest'
import { receiptImage } from '../../../test/helpers/document-recognition/receipt-image'
import type { PageWord } from '../page-text'
import { OcrEngine, TesseractReader } from './ocr'
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
    expect(documentLanguage([wordsOf('Sprzedawca Nabywca Razem do zapłaty 1 230,00 zł słownie')])).toBe('pol')
    expect(documentLanguage([wordsOf('Dodavatel Odběratel Základ DPH 21 % Celkem k úhradě Kč')])).toBe('ces')
    expect(documentLanguage([wordsOf('Fakturadatum Att betala 1 250,00 Momsbelopp Bankgiro Tack')])).toBe(
      'swe',
    )
    expect(documentLanguage([wordsOf('Lasku Eräpäivä Viitenumero ALV 25,5 % Yhteensä')])).toBe('fin')
    expect(documentLanguage([wordsOf('Számla Vevő Eladó ÁFA összesen Fizetendő Ft')])).toBe('hun')
    expect(documentLanguage([wordsOf('Fatura Tarihi SAYIN Toplam KDV Ödenecek Tutar TL')])).toBe('tur')
    expect(documentLanguage([wordsOf('Reikningur Kaupandi Gjalddagi Samtals VSK kr.')])).toBe('isl')
    // Malay and a lone marker word decide nothing: the English model reads the page.
    expect(documentLanguage([wordsOf('TERIMA KASIH SILA DATANG LAGI JUMLAH 9.00 di')])).toBe('eng')
  })

  const engine = new OcrEngine()
  afterAll(() => engine.close())

  it.each<[string, string[], string[]]>([
    [
      'a German receipt with the German model: its umlauts and ß',
      [
        'Bäckerei Müller GmbH',
        'Hauptstraße 12, 80331 München',
        'Brötchen 6 Stück          2,40',
        'Käsekuchen                3,90',
        'Summe EUR                 6,30',
        'Gegeben Bar              10,00',
        'Rückgeld                  3,70',
        'Vielen Dank für Ihren Einkauf!',
      ],
      ['Bäckerei', 'Müller', 'Hauptstraße', 'Rückgeld'],
    ],
    [
      'a Polish invoice with the Polish model: "ł", "ż" and "ą"',
      [
        'Piekarnia Złoty Kłos Sp. z o.o.',
        'ul. Żeromskiego 4, 90-001 Łódź',
        'Sprzedawca: Piekarnia Złoty Kłos',
        'Nabywca: Kawiarnia Pod Różą',
        'Razem netto             120,00',
        'VAT 23%                  27,60',
        'Razem do zapłaty        147,60 zł',
      ],
      ['Złoty', 'Łódź', 'zapłaty'],
    ],
    [
      'a Turkish receipt with the Turkish model: "ş", "ü" and the dotless "ı"',
      [
        'Güneş Kuruyemiş Ltd. Şti.',
        'Atatürk Cad. No:12 Konak / İzmir',
        'Fındık 500 g             185,00',
        'Kayısı kurusu            120,00',
        'Toplam KDV                30,50',
        'Ödenecek Tutar           305,00',
        'Teşekkür ederiz, yine bekleriz',
      ],
      ['Güneş', 'Fındık', 'Teşekkür'],
    ],
  ])(
    'reads %s come back as printed',
    async (_page, lines, printed) => {
      const text = (await engine.recognise(await receiptImage(lines))).map((w) => w.text).join(' ')
      for (const word of printed) expect(text).toContain(word)
    },
    90_000,
  )
})

describe('the language models kept loaded', () => {
  it('keeps English and one other language loaded, ending the longest unused when another is read', async () => {
    const reader = new TesseractReader()
    try {
      const image = await receiptImage(['Summe EUR 6,30'])
      // As pages are read: English first, then the page's own language.
      for (const language of ['eng', 'deu', 'eng', 'pol', 'eng', 'fra'] as const)
        await reader.read(image, undefined, language)
      expect(reader.loadedLanguages()).toEqual(['eng', 'fra'])
    } finally {
      await reader.close()
    }
  }, 90_000)
})
