import { describe, expect, it } from 'vitest'
import { readSseJson } from './sse'

const bodyOf = (chunks: string[]) =>
  new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
      controller.close()
    },
  })

describe('event stream reader', () => {
  it('reads events split across chunks, CRLF-delimited and spread over several data lines, skipping comments', async () => {
    const events: unknown[] = []
    await readSseJson(
      bodyOf(['data: {"type":', '"token"}\r\n\r\n: ping\n\n', 'data: {"type":\ndata: "done"}\n\n']),
      (event) => events.push(event),
    )
    expect(events).toEqual([{ type: 'token' }, { type: 'done' }])
  })
})
