import { describe, expect, it } from 'vitest'
import { parseInvoiceXml, xmlText } from './invoice-xml'

const INVOICE = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:rsm" xmlns:ram="urn:ram">
  <!-- <ram:SellerTradeParty><ram:Name>Draft Seller</ram:Name></ram:SellerTradeParty> -->
  <rsm:ExchangedDocument><ram:ID>INV-007</ram:ID></rsm:ExchangedDocument>
  <ram:SellerTradeParty><ram:ID>42</ram:ID><ram:Name>M&#252;ller &amp; <![CDATA[S&#246;hne]]></ram:Name></ram:SellerTradeParty>
  <ram:BuyerTradeParty><ram:Name>Kunde &#x41;G</ram:Name></ram:BuyerTradeParty>
</rsm:CrossIndustryInvoice>`

describe('e-invoice XML', () => {
  it('reads the first element at a path of local names, whatever the namespace prefix', () => {
    const tree = parseInvoiceXml(INVOICE)
    expect(tree).not.toBeNull()
    expect(xmlText(tree ?? [], 'ExchangedDocument/ID')).toBe('INV-007')
    expect(xmlText(tree ?? [], 'BuyerTradeParty/Name')).toBe('Kunde AG')
    expect(xmlText(tree ?? [], 'BuyerTradeParty/ID')).toBeNull()
  })

  it('skips commented-out elements, decodes character references and keeps CDATA as written', () => {
    expect(xmlText(parseInvoiceXml(INVOICE) ?? [], 'SellerTradeParty/Name')).toBe('Müller & S&#246;hne')
  })

  it('refuses XML that is not well-formed', () => {
    expect(parseInvoiceXml('<rsm:CrossIndustryInvoice><ram:ID>1</rsm:CrossIndustryInvoice>')).toBeNull()
  })
})
