import { followsReference, REFERENCE_REACH } from '../label-context'
import { fold } from '../values'

/**
 * What a word on an invoice says about the values near it, in German, English, French, Dutch, Italian and Spanish,
 * and in Portuguese, Danish, Norwegian, Swedish, Icelandic, Finnish, Polish, Czech, Slovak, Hungarian, Romanian,
 * Slovenian, Croatian, the Baltic languages and Turkish, whose words join the same classes (so the weights learnt on
 * the first six apply to them).
 * A word belongs to word classes (a label of the total, of a customer number, a number marker ...); the ranker's
 * features are which classes stand left of a candidate value, above it, or on its line, and the learned weights
 * decide what each means for each field. German and Dutch compounds are matched by their parts ("Gesamtbetrag",
 * "Rechnungsnummer", "Klantnummer").
 */
export const WORD_CLASSES = [
  'title',
  'number',
  'marker',
  'customer',
  'order',
  'booking',
  'date',
  'dated',
  'delivery',
  'due',
  'net',
  'tax',
  'total',
  'amount',
  'incl',
  'prepaid',
  'payable',
  'seller',
  'buyer',
  'payee',
  'contact',
  'item',
  'page',
  'rate',
  'section',
  'reference',
  'corrected',
  'shipto',
  'discount',
] as const
export type WordClass = (typeof WORD_CLASSES)[number]

const CLASS_WORDS: Record<WordClass, RegExp> = {
  title:
    /^(?:invoice|rechnung|facture|factuur|fattura|factura|gutschrift|credit|avoir|creditnota|nota|abono|rechnungskorrektur|schlussrechnung|abschlagsrechnung|teilrechnung|teilschlussrechnung|anzahlungsrechnung|vorauszahlungsrechnung|proformarechnung|sammelrechnung|stornorechnung|korrekturrechnung|endrechnung|eindfactuur|voorschotfactuur|deelfactuur|rectificativa|bill|receipt|quittung|zahlungsbeleg|recu|quittance|kwitantie|betalingsbewijs|ricevuta|recibo|fatura|lasku|szamla|racun|arve|rekins|saskaita|laskun|kreditnota|kreditfaktura|hyvityslasku|korygujaca|dobropis|opravny|doklad|jovairo|credito|storno|honorarnote|honorarrechnung|parcella|reikningur)$/,
  number:
    /^(?:(?:rechnung|rechnungs|beleg|gutschrift|gutschrifts|factuur|creditnota|invoice|faktura)(?:nummer|nr|no)|re|rg|invoiceno|invno|inv|laskunumero|szamlaszam)$/,
  marker:
    /^(?:no|nr|n|nummer|number|numero|num|id|#|ref|reference|referenz|referentie|riferimento|referencia|beleg|piece|identifiant|identifier|numer|cislo|nro|numar|szam|sorszam|stevilka|broj|seria|serie|atcud)$/,
  customer:
    /^(?:kunde|kunden|kundennummer|kundennr|kd|customer|client|clients|klant|klantnummer|klantnr|debiteur|debiteurnummer|debiteurnr|cliente|account|abonne|mitglied|member|kundenkonto|asiakas|klient|klienta|zakaznik|ugyfel|musteri)$/,
  order:
    /^(?:bestellung|bestellnummer|bestellnr|auftrag|auftrags|auftragsnummer|auftragsnr|order|ordernummer|ordernr|bestelnummer|bestelling|po|commande|ordine|pedido|requisicao|lieferschein|contract|vertrag|vertragsnummer|project|projekt|job|matter|aktenzeichen|expediente|pratica|angebot|quote|offerte|zamowienie|zlecenie|objednavka|tilaus|bestilling|bestallning|ordre|megrendeles|rendeles|comanda|encomenda|umowa|smlouva|kontrakt|avtale|tilbud|offert|oferta|nabidka|siparis|pontun)$/,
  // What a document's own identifier names when it is no invoice number: a booking, a transaction, a reservation.
  booking:
    /^(?:booking|buchung|buchungs|reservation|reservierung|reservering|boeking|boekings|prenotazione|reserva|localizador|transaction|transaktion|vorgang|vorgangs|confirmation|bestatigung|buchungsnummer|boekingsnummer)$/,
  date: /^(?:date|datum|fecha|data|rechnungsdatum|belegdatum|ausstellungsdatum|factuurdatum|dated|issued|emission|facturation|emis|ausgestellt|dato|paivays|paivamaara|laskupaiva|kelte|kiallitas|datuma|vystaveni|vyhotovenia|wystawienia|emissao|emiterii|izdaje|izdavanja|kuupaev|tarih|tarihi|dagsetning|dags|datums)$/,
  dated: /^(?:vom|von|du|del|van|le|of|den|am|on|dd|dnia|dne)$/,
  // When goods or a service were delivered, or a stay began and ended (a hotel's arrival and departure): no issue date.
  delivery:
    /^(?:anreise|abreise|arrival|departure|completion|completed|arrivee|depart|aankomst|vertrek|arrivo|partenza|llegada|salida|checkin|checkout|lieferdatum|leistungsdatum|liefertermin|lieferung|leistungszeitraum|leistung|delivery|delivered|livraison|leverdatum|levering|consegna|entrega|period|periode|periodo|zeitraum|shipped|shipping|versand|lieferschein|ddt|bolla|albaran|pakbon|leveringsbon|dispatch|dispatched|despatch|dostawy|sprzedazy|plneni|uskutecneni|duzp|dodania|leverans|leveransdatum|leveringsdato|toimitus|toimituspaiva|teljesites|teljesitesi|livrarii|livrare|dobave|isporuke|wysylka|okres|obdobie|kausi|idoszak|remessa|guia|dodaci|dodani|wz|lahetys|lahete|folgeseddel|foljesedel|folgeseddel|leveranssedel|fraktsedel|szallitolevel|aviz|irsaliye|sevk|teslim|teslimat|afhending|afhendingardagur)$/,
  due: /^(?:zahlungsbedingungen|zahlungsbedingung|zahlungskonditionen|betalingsvoorwaarden|betalingscondities|condizioni|condiciones|conditions|terms|due|faelligkeit|falligkeit|fallig|faellig|zahlbar|echeance|vervaldatum|vervaldag|uiterste|scadenza|vencimiento|payable|pay|zahlungsziel|until|bis|avant|termin|platnosci|splatnosti|splatnost|forfald|forfaldsdato|forfalder|forfall|forfallsdato|forfallodag|forfallodatum|erapaiva|maksuehto|maksuehdot|fizetesi|hatarido|scadenta|scadentei|vencimento|betalingsbetingelser|betalingsfrist|betalningsvillkor|dospijeca|vade|vadesi|gjalddagi|eindagi|termins|lidz|iki)$/,
  net: /^(?:netto|net|nettobetrag|nettosumme|nettowert|subtotal|sub|zwischensumme|warenwert|ht|hors|subtotaal|excl|exkl|exclusief|excluding|imponibile|base|bases|htva|untaxed|taxable|sous|grondslag|maatstaf|ohne|sin|before|zaklad|bez|uden|ekskl|exklusive|veroton|nelkul|adoalap|baza|fara|sem|incidencia|tributavel|iliquido|osnovica|brez|kaibemaksuta|momsgrundlag|grunnlag|delsumma|delsum|valisumma|mezisoucet|medzisucet|reszosszeg|matrah|matrahi|haric|osnova)$/,
  tax: /^(?:tax|vat|gst|mwst|ust|umsatzsteuer|mehrwertsteuer|steuer|steuerbetrag|tva|btw|iva|cuota|cuotas|taxes|btwbedrag|sst|hst|pst|qst|tps|tvq|igic|dph|moms|mva|alv|afa|ddv|pdv|kaibemaks|pvm|pvn|podatek|podatku|vero|arvonlisavero|momsbelopp|momsbelob|merverdiavgift|imposta|imposte|impuesto|impuestos|imposto|impostos|kdv|otv|vergi|vergiler|vergisi|vsk)$/,
  total:
    /^(?:total|totals|gesamt|gesamtbetrag|bruttobetrag|brutto|rechnungsbetrag|rechnungssumme|gesamtsumme|endbetrag|endsumme|summe|ttc|totaal|totaalbedrag|factuurbedrag|factuurtotaal|totale|grand|bruttosumme|razem|ogolem|celkem|celkom|spolu|alt|ialt|totalt|yhteensa|osszesen|vegosszeg|ukupno|skupaj|kokku|loppusumma|viso|kopa|toplam|samtals)$/,
  amount:
    /^(?:amount|betrag|montant|bedrag|importo|importe|sum|somme|som|wert|kwota|wartosc|castka|suma|belob|belop|belopp|summa|osszeg|valoare|valor|znesek|iznos|tutar|tutari|upphaed)$/,
  incl: /^(?:incl|inkl|inclusief|including|inclusive|included|comprises|ivato|ivainclusa|inklusive|sis|vcetne|vratane|dahil|med)$/,
  prepaid:
    /^(?:anzahlung|vorauszahlung|abschlag|abschlagszahlung|bezahlt|deposit|paid|advance|acompte|regle|aanbetaling|betaald|acconto|anticipo|pagado|received|recibido|recibidos|recebido|recebidos|ricevuto|ricevuti|abzgl|abzuglich|less|minus|voorschot|gutschrift|zaliczka|zaloha|zalohy|uhrazeno|zaplacono|forskud|forskudd|forskott|ennakko|ennakkomaksu|eloleg|avans|adiantamento|sinal|betalt|maksettu|predujem)$/,
  payable:
    /^(?:zahlbetrag|zahlen|zahlender|payable|balance|betalen|voldoen|pagare|pagar|restbetrag|offener|offen|reste|solde|openstaand|outstanding|pendiente|remaining|zaplaty|zaplacenia|uhrade|uhrady|betale|betala|maksettava|fizetendo|plata|placilo|platiti|tasuda|apmaksai|moketi|saldo|erhalla|tillgodo|odenecek|greidslu)$/,
  seller:
    /^(?:seller|supplier|vendor|verkaufer|lieferant|vendeur|fournisseur|leverancier|verkoper|fornitore|venditore|cedente|proveedor|vendedor|from|issuer|emittente|mittente|emisor|emetteur|absender|sender|auftragnehmer|leistungserbringer|prestataire|rechnungssteller|aussteller|afzender|sprzedawca|dostawca|wystawca|dodavatel|predavajuci|prodavajici|leverandor|saljare|leverantor|myyja|toimittaja|laskuttaja|elado|szallito|kibocsato|furnizor|vanzator|fornecedor|emitente|prestador|prestatore|dobavitelj|izdajatelj|prodavatelj|dobavljac|muuja|tarnija|pardavejas|piegadatajs|locadora|locador|arrendador|wynajmujacy|pronajimatel|satici|seljandi)$/,
  buyer:
    /^(?:buyer|kaufer|rechnungsempfanger|empfanger|leistungsempfanger|auftraggeber|acheteur|destinataire|billed|bill|billing|ship|to|an|a|aan|para|destinatario|intestatario|facturado|factureren|adresse|address|rechnungsadresse|rechnungsanschrift|lieferadresse|guest|gast|hote|ospite|huesped|gastnaam|spett|spettle|spettabile|nabywca|odbiorca|platnik|odberatel|kupujici|kupujuci|prijemce|kober|kjoper|kopare|mottagare|ostaja|laskutettava|vevo|megrendelo|cumparator|beneficiar|adquirente|kupec|narucitelj|kupac|ostja|pirkejas|sanemejs|locataria|locatario|arrendatario|najemca|najemce|cessionario|committente|alici|sayin|kaupandi|tomador|receptor|afnemer|comprador|compradora|acquirente)$/,
  // The holder of the account the invoice is paid to: the seller.
  payee:
    /^(?:kontoinhaber|inhaber|zahlungsempfanger|beneficiary|payee|holder|favour|favor|titulaire|beneficiaire|begunstigde|rekeninghouder|beneficiario|titular)$/,
  // How the seller is reached, and who at the seller handles the invoice or served at the till ("Ihr
  // Ansprechpartner", "Your contact", "Le atendió", "Cashier"): none names a party.
  contact:
    /^(?:tel|telefon|telephone|phone|fax|mobil|mobile|email|mail|ansprechpartner|ansprechpartnerin|sachbearbeiter|sachbearbeiterin|bearbeiter|bearbeiterin|contactpersoon|interlocuteur|interlocutrice|referente|cashier|cajero|cajera|atendio|atendido|kassierer|kassiererin|bedient|bediente|bedienung|caissier|caissiere|cassiere|cassiera|operador|operadora|kassamedewerker|iban|bic|swift|blz|konto|bank|ustidnr|ustid|idnr|siret|siren|kvk|piva|cif|nif|hrb|hra|steuernr|steuernummer|www|web|http|https|rcs|capital|sitz|registergericht|amtsgericht|handelsregister|regd|registered|cin|gstin|rea|nip|regon|krs|ico|dic|cvr|org|tunnus|ytunnus|adoszam|cui|nipc|cnpj|cpf|oib|puh|tlf|bankgiro|plusgiro|ucet|variabilni|soud|soudem|rejstrik|rejstriku|vlozka|oddil|rejestr|rejestru|sad|sadu|onrc|euid|reg|registrikood|registru|viitenumero|viitenumber|viite|betalingskenmerk|betalingsreferentie|mededeling|vkn|tckn|mersis|ettn|faks|kennitala|kt|simi|referens|referanse|viitteenne|viitteemme)$/,
  item: /^(?:concepto|conceptos|codigo|codice|bezeichnung|artikelbezeichnung|designazione|prestation|prestations|qty|menge|anzahl|quantity|qte|aantal|qta|cant|cantidad|quantita|unit|einzelpreis|prix|prezzo|precio|price|stk|pos|position|article|artikel|descrizione|description|beschreibung|omschrijving|designation|descripcion|hours|stunden|heures|uren|ore|horas|nazwa|ilosc|cena|mnozstvi|mnozstvo|popis|beskrivelse|beskrivning|antal|antall|pris|enhedspris|kuvaus|maara|kpl|hinta|yksikkohinta|megnevezes|mennyiseg|egysegar|denumire|cantitate|pret|descricao|quantidade|preco|designacao|kolicina|opis|kogus|hind|discriminacao|kirjeldus|toode|nimetus|tootekood|item|items|miktar|birim|fiyat|aciklama|adet|magn|einingaverd|lysing)$/,
  page: /^(?:seite|page|pagina|blatt|blad|pag|strona|strana|sida|side|sivu|oldal|stran)$/,
  // A section's heading names what a block is about ("Hotel Details", "Coordonnées", "Participants"), no party; nor
  // does a letter's marking ("Private & Confidential", "Vertraulich").
  section:
    /^(?:details|detail|information|informations|info|summary|overview|angaben|daten|informationen|ubersicht|details|coordonnees|donnees|gegevens|informatie|overzicht|dettagli|dati|informazioni|riepilogo|datos|detalles|informacion|resumen|participants|participant|attendees|teilnehmer|teilnehmende|deelnemers|partecipanti|participantes|dane|udaje|oplysninger|uppgifter|tiedot|adatok|dados|podatki|podaci|confidential|vertraulich|confidentiel|confidentielle|vertrouwelijk|riservato|riservata|confidencial)$/,
  // What a column or a sum in another currency says of itself: for reference, for information only.
  reference:
    /^(?:ref|reference|info|information|informatie|informazione|informativo|indicatif|indicative|rif|referenz|orientativo|umrechnung|equivalent|aquivalent|gegenwert|tegenwaarde|controvalore|contravalor|contrevaleur)$/,
  // The invoice a credit note corrects, or another document it names: its number and date are not this one's.
  corrected:
    /^(?:original|originale|origine|initiale|ursprungsrechnung|ursprunglich|ursprungliche|ursprunglichen|bezug|korrektur|oorspronkelijke|betreft|betrekking|mbt|bezuglich|bzgl|relates|relating|concerne|concernant|rectificada|rectifica|rectifie|rettifica|corrects|corrected|annule|annulee|dotyczy|puvodni|povodnej|opprinnelig|ursprunglig|oprindelig|alkuperainen|eredeti|initiala|referente)$/,
  // What is taken off a sum: a discount, a rebate, a cash discount.
  discount:
    /^(?:discount|rebate|rabatt|nachlass|skonto|preisnachlass|remise|escompte|ristourne|korting|sconto|descuento|desconto|rabat|alennus|discounts|rebates|rabatte|remises|kortingen|sconti|descuentos|descontos|rabatter|alennukset|slevy|sleva|zlava|kedvezmeny|reducere|popust|allowance|iskonto|indirim|afslattur|afsl)$/,
  // Where goods go or a service is done, not who is billed: a delivery address, a consignee, a site.
  shipto:
    /^(?:lieferadresse|lieferanschrift|versandadresse|leveringsadres|afleveradres|leveringsadresse|leveransadress|toimitusosoite|consignee|lieferort|leistungsort|einsatzort|baustelle|chantier|werf|cantiere|obra|destinazione|site|jobsite|worksite)$/,
  rate: /^(?:\d{1,2}(?:[.,]\d{1,2})?%|%\d{1,2}(?:[.,]\d{1,2})?|%|satz|rate|taux|tarief|aliquota|tipo|steuersatz|sazba|stawka|sats|momssats|verokanta|kulcs|cota|taxa|stopnja|stopa|oran|orani)$/,
}

/**
 * Lower case, accents and the ordinal marks of "N°", "Nº", "n.º" folded away. The Czech and Slovak "č." (číslo, a
 * number) is read before its háček folds away, as a "c" alone is no word.
 */
const normalise = (text: string) =>
  fold(text.replace(/(?<!\p{L})[čČ]\.?(?!\p{L})/gu, 'cislo'))
    .replace(/n\.?[°º]/g, 'no ')
    .replace(/[°º]/g, 'o')

/** The tokens of one printed word ("Re.-Nr.:" is re + nr, "Gesamtbetrag" one token). */
export function tokensOf(word: string): string[] {
  return normalise(word)
    .split(/[^\p{L}\p{N}#%]+/u)
    .filter(Boolean)
}

/**
 * German, Dutch, Nordic and Finnish compounds: a token ending in one of these is also of the part's class
 * ("Klantnummer", "Forfaldsdato", "Laskupäivä").
 */
const COMPOUND_TAILS: [RegExp, WordClass][] = [
  [/.(?:nummer|numer|nr|numero)$/, 'marker'],
  [/.(?:datum|dato|paiva)$/, 'date'],
  [/.(?:betrag|bedrag|summe|summa|belopp|belob|belop)$/, 'amount'],
  [/.(?:steuer)$/, 'tax'],
  // An address's label names the party it is for ("Factuuradres", "Leveringsadres", "Kundenanschrift").
  [/.(?:adres|adresse|adress|anschrift)$/, 'buyer'],
  [/.(?:daten|details|angaben|gegevens)$/, 'section'],
  // A bank's name is where the money goes, not a party ("Swedbank", "Sparebanken", "Handelsbanken").
  [/.(?:bank|banken|banka|bankas)$/, 'contact'],
]

/** The word classes one printed word belongs to. */
export function classesOfWord(word: string): Set<WordClass> {
  const classes = new Set<WordClass>()
  const tokens = tokensOf(word)
  // Letters each followed by a dot are one abbreviation ("N.V.", "S.A.", "t.a.v.", "P.O."), read whole: its
  // letters are no words of their own (not "n" for a number, nor "a" for "to").
  const abbreviation = tokens.length > 1 && tokens.every((t) => t.length === 1)
  // A letter in a code ("A-1210", "B2") is no word: not "a" for "to"; nor are the letters an article code opens
  // with ("SST-101" is no tax, "CH-220" no place).
  const code = /\d/.test(word)
  const articleCode = /^\p{L}+-\d+$/u.test(word)
  for (const token of abbreviation ? [tokens.join('')] : tokens) {
    if (code && (articleCode || token.length === 1) && /\p{L}/u.test(token)) continue
    for (const name of WORD_CLASSES) if (CLASS_WORDS[name].test(token)) classes.add(name)
    for (const [tail, name] of COMPOUND_TAILS) if (tail.test(token)) classes.add(name)
    if (/^kund|^klant|^debiteur/.test(token)) classes.add('customer')
    if (/^(?:gesamt|total|totaal|brutto)/.test(token) && token.length > 5) classes.add('total')
    if (/^netto|^zwischen|^sub/.test(token)) classes.add('net')
  }
  // A delivery address's label names no billed party ("Lieferadresse" ends as a billing address's label does).
  if (classes.has('shipto')) classes.delete('buyer')
  // A purchase order is "PO" or "P.O."; "Po" printed as a word is a name's (the river, "Colli Po").
  if (word === 'Po') classes.delete('order')
  return classes
}

/**
 * A role a label's verb takes from the word after it: "Sold by", "Verkauft von", "Vendu par", "Verkocht door",
 * "Venduto da", "Vendido por" name the seller; "Sold to", "Verkauft an", "Facturé à", "Gefactureerd aan",
 * "Fatturato a", "Facturado a" the buyer. The verb alone says neither.
 */
const ROLE_VERB =
  /^(?:sold|billed|invoiced|shipped|supplied|issued|delivered|verkauft|geliefert|berechnet|fakturiert|vendu|facture|livre|emis|verkocht|gefactureerd|geleverd|venduto|fatturato|emesso|vendido|facturado|emitido|suministrado)$/
const BY = /^(?:by|from|von|durch|par|door|da|por)$/
const TO = /^(?:to|an|a|aan|al|pour|per|para|for)$/
const FOR = /^(?:for|fur|pour|voor|per|para)$/
/** A code's or a number's word: beside a party's word it labels the party's identifier. */
const CODE = /^(?:cod|code|codice|codigo|codi|id|no|nr|number|numero|num|nummer)$/
/** "Without", in the languages whose word for it is no net label of its own ("ohne", "sin", "bez" are). */
const WITHOUT = /^(?:without|sans|senza|zonder|utan|uten|ilman|be)$/
/** A place an address line names: an address, a place, a site. */
const PLACE =
  /^(?:adresse|address|adres|adresa|adress|direccion|indirizzo|endereco|morada|lugar|luogo|local|osoite|cim|place|site|location|punto)$/
/** Words of shipping that are no date's label ("Ship", "Service", "Envío", "Descarga"). */
const SHIPPING = /^(?:ship|shipping|service|site|envio|descarga|dostawy|dodaci|dodani)$/
const SHIP_VERB =
  /^(?:ship|shipped|deliver|delivered|livre|livrer|spedire|spedito|enviar|enviado|consegnare|leveren|geleverd|liefern|geliefert)$/

/** Classes of the words that name an invoice, its number or its date. */
const INVOICE_LABEL: WordClass[] = ['title', 'number', 'marker', 'date', 'dated']

/**
 * The word classes of a line's words, each word's own and the role a verb and the word after it give both.
 * `columnStarts` holds the indices of the words a wide gap sets apart from the word before (another column's).
 */
export function classesOfLine(
  words: string[],
  columnStarts: ReadonlySet<number> = new Set(),
): Set<WordClass>[] {
  const classes = words.map(classesOfWord)
  const last = (i: number) => tokensOf(words[i] ?? '').at(-1) ?? ''
  const first = (i: number) => tokensOf(words[i] ?? '')[0] ?? ''
  // A date's joining word ("vom", "du", "del", "le") joins a date only: before anything else it is no label
  // ("Spett.le", "Datos del cliente").
  classes.forEach((own, i) => {
    if (own.has('dated') && !/^\d/.test(words[i + 1] ?? '')) own.delete('dated')
  })
  // A title or number word after a reference to another invoice names that invoice ("Credit note for invoice",
  // "Gutschrift zur Rechnung Nr.", "Avoir sur facture n° ... du", "Re: Invoice"), and so do its number marker and
  // its date's joining word: they name the corrected invoice's number and date, not this document's.
  let column = 0
  classes.forEach((own, i) => {
    if (columnStarts.has(i)) column = i
    if (i === column || !INVOICE_LABEL.some((c) => own.has(c))) return
    const before = words.slice(Math.max(column, i - REFERENCE_REACH), i).join(' ')
    if (!followsReference(before, words[i] as string)) return
    for (const gone of INVOICE_LABEL) own.delete(gone)
    own.add('corrected')
  })
  // "Bill" and "Ship" name the buyer's address before "to" or "address" (or alone), not a way or a day of
  // shipping ("Ship Via", "Ship Date").
  words.forEach((_, i) => {
    const next = first(i + 1)
    if (/^(?:bill|ship|billing|shipping)$/.test(last(i)) && next && !/^(?:to|address)$/.test(next))
      classes[i]?.delete('buyer')
  })
  // "Due" after a sum's word names the sum to be paid ("Amount due", "Balance due", "Total due"), not a day.
  classes.forEach((own, i) => {
    const before = classes[i - 1]
    if (own.has('due') && before && ['amount', 'total', 'payable'].some((c) => before.has(c as WordClass))) {
      own.delete('due')
      own.add('payable')
    }
  })
  // "s/" ("sem", "sin": without) before a tax's word names the sum without it ("Total s/ IVA", "Base s/IVA").
  words.forEach((word, i) => {
    const glued = /^s\/\p{L}/iu.test(word) && classes[i]?.has('tax')
    if (!glued && !(/^s\/$/i.test(word) && classes[i + 1]?.has('tax'))) return
    classes[glued ? i : i + 1]?.delete('tax')
    classes[i]?.add('net')
  })
  // "Fee note" titles a solicitor's or a barrister's invoice ("Fee note no: FN 25/0318").
  words.forEach((_, i) => {
    if (last(i) === 'fee' && first(i + 1) === 'note') for (const at of [i, i + 1]) classes[at]?.add('title')
  })
  // A title and "for" name the buyer as "to" does ("Invoice for", "Rechnung für", "Facture pour", "Factuur voor").
  words.forEach((_, i) => {
    if (classes[i]?.has('title') && FOR.test(first(i + 1)) && !classes[i + 2]?.has('corrected'))
      classes[i + 1]?.add('buyer')
  })
  words.forEach((_, i) => {
    if (!ROLE_VERB.test(last(i))) return
    const role = BY.test(first(i + 1)) ? 'seller' : TO.test(first(i + 1)) ? 'buyer' : null
    if (!role) return
    for (const own of [classes[i], classes[i + 1]] as Set<WordClass>[]) {
      for (const other of ['seller', 'buyer', 'title'] as const) own.delete(other)
      own.add(role)
    }
  })
  // A party's word beside a code's labels the party's identifier, not its name ("Cod. destinatario SDI", "Supplier
  // No.", "Seller ID").
  words.forEach((_, i) => {
    if (CODE.test(last(i - 1)) || CODE.test(first(i + 1)))
      for (const party of ['buyer', 'seller'] as const) classes[i]?.delete(party)
  })
  // Where goods go: a delivery word with an address word ("Adresse de livraison", "Delivery address", "Lugar de
  // entrega", "Service address"), or a verb of shipping before "to" ("Ship to", "Livré à", "Deliver to").
  words.forEach((_, i) => {
    const pair = [i + 1, i + 2].find(
      (j) => PLACE.test(first(j)) && (j === i + 1 || PARTICLE.test(words[i + 1] ?? '')),
    )
    const before = [i - 1, i - 2].find(
      (j) => PLACE.test(last(j)) && (j === i - 1 || PARTICLE.test(words[i - 1] ?? '')),
    )
    const shipping = SHIPPING.test(last(i)) || SHIP_VERB.test(last(i)) || classes[i]?.has('delivery')
    const other = shipping
      ? (pair ?? before ?? (SHIP_VERB.test(last(i)) && TO.test(first(i + 1)) ? i + 1 : null))
      : null
    if (other === null || other === undefined) return
    for (const own of [classes[i], classes[other]] as Set<WordClass>[]) {
      for (const gone of ['buyer', 'delivery'] as const) own.delete(gone)
      own.add('shipto')
    }
  })
  // "Without" before a tax word names the net ("Suma be PVM", "zonder btw", "ilman ALV", "sans TVA").
  // Icelandic "án" too, told by its accent from the German "An" it folds to ("Samtals án VSK").
  words.forEach((word, i) => {
    if ((WITHOUT.test(last(i)) || /^án$/iu.test(word)) && classes[i + 1]?.has('tax')) classes[i]?.add('net')
  })
  // "To", "An", "A", "Aan" name the addressee as a heading: alone, with a colon, ending a line or after a title or
  // an addressee's word ("Invoice to ACME", "Bill to"); elsewhere they are a preposition ("Total a pagar").
  words.forEach((word, i) => {
    const heading = words.length === 1 || /:$/.test(word) || i === words.length - 1
    const after = classes[i - 1]
    const labelGoesOn = after?.has('title') || after?.has('buyer') || after?.has('shipto')
    if (TO.test(first(i)) && !heading && !labelGoesOn) classes[i]?.delete('buyer')
    // "À payer" is what is to be paid ("Net à payer"); "payer" alone is English for who pays.
    if (first(i) === 'payer' && last(i - 1) === 'a') classes[i]?.add('payable')
  })
  // "Van", "Von", "Fra", "Från" ("from") head the sender's block alone on their line or with a colon ("Van:"), and
  // "Til", "Till" ("to") the addressee's; elsewhere they are a name's particle ("Van Dalen", "von Arnim") or a word
  // of a sentence ("Betales til konto").
  words.forEach((word, i) => {
    const heading = words.length === 1 || /:$/.test(word)
    if (heading && /^(?:van|von|fra|fran)$/.test(first(i))) classes[i]?.add('seller')
    if (heading && /^(?:til|till)$/.test(first(i))) classes[i]?.add('buyer')
  })
  return classes
}

/** A courtesy title before a person's name ("Mme", "De heer", "Herrn", "Mrs."), not a doctor's or professor's. */
export const COURTESY_TITLE =
  /^(?:(?:herrn?|frau|mr|mrs|ms|miss|mme|mlle|monsieur|madame|mademoiselle|dhr|mevr|mevrouw|de heer|sig\.ra|sig|sr|sra|d\.ª|dña)\.?\s+)+/i

/** A particle of a person's or a company's name, printed in lower case ("de Lattre", "Estudio de Danza"). */
export const PARTICLE = /^(?:de|da|di|del|della|van|von|der|den|ten|ter|le|la|du|dos|y|zu|mc|st\.?)$/i

/**
 * Legal forms of companies in the six languages and English, the Portuguese, Nordic and Central European ones
 * ("Lda.", "ApS", "sp. z o.o.", "a.s.", "d.o.o."), and Latin America's and Turkey's ("S.A. de C.V.", "S/A", "Ltd.
 * Şti."): a name holding one is a company's name. The Nordic "AB", "AS" and "hf." count only at a name's end:
 * elsewhere they are words ("ab 1. März", "as agreed").
 */
export const LEGAL_FORM =
  /(?:^|[\s,])(?:s\.?\s?a\.?\s?(?:p\.?\s?i\.?\s?)?de\s+c\.?\s?v\.?|s\.?\s?de\s+r\.?\s?l\.?(?:\s+de\s+c\.?\s?v\.?)?|s\/a|ltd\.?\s*[şs]t[iİı]\.?|a\.\s?ş\.|ehf\.?|g?mbh|ag|(?<!\d\s?)kg|ohg|e\.?\s?k\.?|ug|gbr|ltd\.?|limited|llp|llc|pllc|cic|lt[ée]e|limit[ée]e|inc\.?|corp\.?|plc|sarl|sas|sasu|eurl|s\.a\.s\.?|s\.l\.p\.?|slp|s\.s\.|lda\.?|unipessoal|aps|a\/s|oyj?|sp\.\s?z\s?o\.\s?o\.?|s\.r\.o\.?|kft\.?|zrt\.?|sa|sca|b\.?v\.?|n\.?v\.?|v\.?o\.?f\.?|s\.?r\.?l\.?|s\.?p\.?a\.?|s\.?n\.?c\.?|s\.?l\.?u?\.?|s\.?a\.?u?\.?|co\.? kg|co\.|e\.?\s?u\.|e\.\s?v\.|eg|ggmbh|kgaa|partg(?:\s?mbb)?|s\.?\s?à\s?r\.?\s?l\.?|pty\.?|bvba|sprl|asbl|vzw|stichting|onlus|a\.s\.|k\.s\.|v\.o\.s\.|d\.o\.o\.|d\.d\.|s\.p\.|sp\.\s?[jk]\.|ltda\.?|eireli|ivs|[ikp]\/s|a\.m\.b\.a\.|amba|nyrt\.?|bt\.|asa|uab|oü|aktiebolag|aksjeselskap|(?:ab|as|hb|kb|hf\.?)(?=\s*$)|(?:soc\.\s?coop\.?|societ[àa]\scooperativa)(?:\s(?:agricola|sociale|a\s?r\.?\s?l\.?))?)(?=$|[\s,.)])/iu
