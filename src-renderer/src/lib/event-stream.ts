import { EventSourceParserStream } from 'eventsource-parser/stream'

/**
 * Reads a `text/event-stream` body (fetched, so the bearer header goes along) until it ends, handing each event's
 * JSON `data` to `onEvent` in order; comments such as `: ping` and events without data are skipped.
 */
export async function readEvents<T>(response: Response, onEvent: (event: T) => void): Promise<void> {
  if (!response.body) return
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    if (value.data) onEvent(JSON.parse(value.data) as T)
  }
}
