/** Reads a `text/event-stream` body until it ends, handing each event's `data` (JSON) to `onEvent`. */
export async function readEvents<T>(response: Response, onEvent: (event: T) => void): Promise<void> {
  if (!response.body) return
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += value
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n')
      buffer = buffer.slice(end + 2)
      if (data) onEvent(JSON.parse(data) as T)
    }
  }
}
