import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { requestLineWriter } from './request-line'

function capture(level: string) {
  const lines: string[] = []
  const logger = pino({ level }, { write: (line: string) => lines.push(line) })
  return { logger, lines }
}

const fields = {
  reqId: 'req-1',
  method: 'GET',
  url: '/api/search?q="quoted"\\é&x=1',
  status: 200,
  ms: 3,
  user: 'ada',
}

describe('the request line', () => {
  it("is the line pino's own info call writes for the same fields, but for its time", () => {
    const { logger, lines } = capture('info')
    requestLineWriter(logger)(fields)
    logger.info({ ...fields, msg: 'request' })
    const [ours, pinos] = lines.map((line) => line.replace(/"time":\d+/, '"time":0'))
    expect(ours).toBe(pinos)
    expect(JSON.parse(ours as string)).toMatchObject({ ...fields, level: 30, msg: 'request' })
  })

  it('quotes text as pino does: plain, escaped, non-ASCII, control characters, surrogate pairs', () => {
    const texts = [
      '/plain/path',
      'Zoë',
      '日本',
      'tab\there',
      'new\nline',
      'bell\u0007',
      'quote"d',
      'back\\slash',
    ]
    for (const text of [...texts, 'smile 🙂', '\u007f\u2028\u2029', '']) {
      const { logger, lines } = capture('info')
      const odd = { ...fields, url: text, user: text, method: text, reqId: text }
      requestLineWriter(logger)(odd)
      logger.info({ ...odd, msg: 'request' })
      const [ours, pinos] = lines.map((line) => line.replace(/"time":\d+/, '"time":0'))
      expect(ours).toBe(pinos)
      expect(JSON.parse(ours as string)).toMatchObject({ url: text, user: text })
    }
  })

  it('keeps a lone surrogate as an escape, so the line reads back to the same text', () => {
    for (const text of ['lone \ud800 high', 'lone \udc00 low']) {
      const { logger, lines } = capture('info')
      requestLineWriter(logger)({ ...fields, url: text, user: text })
      expect(lines[0]).toContain(JSON.stringify(text))
      expect(JSON.parse(lines[0] as string)).toMatchObject({ url: text, user: text })
    }
  })

  it('leaves out an anonymous caller and masks a token in the query', () => {
    const { logger, lines } = capture('info')
    requestLineWriter(logger)({ ...fields, user: undefined, url: '/ws?x=1&ACCESS_TOKEN=sbt_secret&y=2' })
    const line = JSON.parse(lines[0] as string)
    expect(line.url).toBe('/ws?x=1&ACCESS_TOKEN=***&y=2')
    expect(line).not.toHaveProperty('user')
    expect(lines[0]).not.toContain('sbt_secret')
  })

  it('masks every token parameter, also one whose name is percent-encoded as the query parser decodes it', () => {
    const { logger, lines } = capture('info')
    requestLineWriter(logger)({ ...fields, url: '/ws?access%5Ftoken=sbt_one&q=a%3Db&access_token=sbt_two' })
    expect(JSON.parse(lines[0] as string).url).toBe('/ws?access%5Ftoken=***&q=a%3Db&access_token=***')
    expect(lines[0]).not.toContain('sbt_')
  })

  it("follows the logger's level as it changes", () => {
    const { logger, lines } = capture('warn')
    const write = requestLineWriter(logger)
    write(fields)
    expect(lines).toEqual([])
    logger.level = 'info'
    write(fields)
    expect(lines).toHaveLength(1)
  })
})
