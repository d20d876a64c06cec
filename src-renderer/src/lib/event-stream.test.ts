import { describe, expect, it } from 'vitest'
import { readEvents } from './event-stream'

/** A streamed body that arrives in the given pieces, as a network delivers it. */
function streamed(pieces: string[]): Response {
  const encoder = new TextEncoder()
  return new Response(
    new ReadableStream({
      start(controller) {
        for (const piece of pieces) controller.enqueue(encoder.encode(piece))
        controller.close()
      },
    }),
  )
}

describe('readEvents', () => {
  it('hands over each event once it is complete, however the body was cut', async () => {
    const seen: unknown[] = []
    await readEvents(
      streamed(['data: {"type":"tok', 'en","n":1}\n', '\ndata: {"type":"done"}\n\n']),
      (event) => seen.push(event),
    )
    expect(seen).toEqual([{ type: 'token', n: 1 }, { type: 'done' }])
  })

  it('joins multi-line data and skips comments and events without data', async () => {
    const seen: unknown[] = []
    await readEvents(streamed([': ping\n\ndata: {"a":\ndata: 2}\n\nevent: nothing\n\n']), (event) =>
      seen.push(event),
    )
    expect(seen).toEqual([{ a: 2 }])
  })

  it('reads CRLF-delimited events', async () => {
    const seen: unknown[] = []
    await readEvents(streamed(['data: {"type":', '"token"}\r\n\r\n: ping\n\n']), (event) => seen.push(event))
    expect(seen).toEqual([{ type: 'token' }])
  })

  it('drops an event cut off by the end of the stream', async () => {
    const seen: unknown[] = []
    await readEvents(streamed(['data: {"whole":true}\n\ndata: {"half"']), (event) => seen.push(event))
    expect(seen).toEqual([{ whole: true }])
  })
})
