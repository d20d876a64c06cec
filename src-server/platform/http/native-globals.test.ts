import { describe, expect, it } from 'vitest'

// Taken before any of the server's modules load (core-js makes its replacements print as native code, so
// comparing the functions themselves is the check).
const { stringify, parse } = JSON

describe('the request thread', () => {
  it("keeps JSON.stringify and JSON.parse native once every domain's modules are loaded", async () => {
    // pdfjs's legacy build replaces both with core-js JavaScript when imported; every response and log line
    // then paid for it. Only the worker threads may load it.
    await import('../../app')
    expect(JSON.stringify).toBe(stringify)
    expect(JSON.parse).toBe(parse)
  })
})
