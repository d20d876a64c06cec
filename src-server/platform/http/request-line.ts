import pino, { type Logger } from 'pino'

/** What the one line per request says. */
export interface RequestLineFields {
  reqId: string
  method: string
  url: string
  status: number
  ms: number
  user: string | undefined
}

/** The parts of a pino line this writer takes from the logger itself: its level, time and bindings stay pino's. */
interface PinoLineParts {
  [pino.symbols.lsCacheSym]: Record<number, string>
  [pino.symbols.timeSym]: () => string
  [pino.symbols.chindingsSym]: string
  [pino.symbols.endSym]: string
  [pino.symbols.streamSym]: pino.DestinationStream
}

/**
 * The one line per request, byte for byte the line `logger.info({ ...fields, msg: 'request' })` writes, at the
 * logger's level, to its stream. Its fields are fixed, so the line is put together directly: pino's generic
 * path (a loop over the object's keys, a serializer and a stringifier looked up for each, every key escaped)
 * was 13% of a trivial request. The level prefix, timestamp and bindings come from the logger, so a change to
 * its options shows up here too.
 */
export function requestLineWriter(logger: Logger): (fields: RequestLineFields) => void {
  const info = logger.levels.values.info as number
  const parts = logger as unknown as PinoLineParts
  const prefix = parts[pino.symbols.lsCacheSym][info] as string
  const tail = `,"msg":"request"${parts[pino.symbols.endSym]}`
  return (fields) => {
    if (logger.levelVal > info) return
    const user = fields.user === undefined ? '' : `,"user":${quoted(fields.user)}`
    parts[pino.symbols.streamSym].write(
      `${prefix}${parts[pino.symbols.timeSym]()}${parts[pino.symbols.chindingsSym]},"reqId":${quoted(fields.reqId)},"method":${quoted(fields.method)},"url":${quoted(maskAccessToken(fields.url))},"status":${fields.status},"ms":${fields.ms}${user}${tail}`,
    )
  }
}

/**
 * `JSON.stringify(text)`: the text in quotes as it is when nothing in it needs escaping, as in almost every line
 * (an id, a method, a path, a name); otherwise JSON.stringify itself. Its four calls into the engine's serializer
 * were half of the line's cost beside requests.
 */
function quoted(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // Control characters, '"' and '\\' are escaped; a lone surrogate too, and a pair is left to the serializer.
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff))
      return JSON.stringify(text)
  }
  return `"${text}"`
}

/**
 * A URL as logged: every query parameter named `access_token` is masked, its name compared as the query parser
 * reads it (percent-decoded, so `access%5Ftoken` is caught too) and in any case. Most URLs carry no query at all.
 */
function maskAccessToken(url: string): string {
  const query = url.indexOf('?')
  if (query < 0 || !url.includes('=', query)) return url
  const params = url
    .slice(query + 1)
    .split('&')
    .map((param) => {
      const equals = param.indexOf('=')
      if (equals < 0) return param
      const name = param.slice(0, equals)
      return decodedName(name).toLowerCase() === 'access_token' ? `${name}=***` : param
    })
  return `${url.slice(0, query + 1)}${params.join('&')}`
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '))
  } catch {
    return name
  }
}
