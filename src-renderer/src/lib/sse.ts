import { EventSourceParserStream } from 'eventsource-parser/stream'

/**
 * Reads a `text/event-stream` body (fetched, so the bearer header goes along) and hands each event's JSON `data`
 * to `onEvent` in order; comments such as `: ping` are skipped. Resolves when the stream ends.
 */
export async function readSseJson<T>(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  onEvent: (event: T) => void,
) {
  const reader = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    if (value.data) onEvent(JSON.parse(value.data) as T)
  }
}
