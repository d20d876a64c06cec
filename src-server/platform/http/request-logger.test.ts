import { PassThrough } from 'node:stream'
import pino from 'pino'
import { describe, expect, it, vi } from 'vitest'
import { lazyRequestLogger } from './request-logger'

function parentLogger() {
  const stream = new PassThrough()
  const lines: Record<string, unknown>[] = []
  stream.on('data', (chunk: Buffer) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
  })
  const logger = pino({ level: 'info', redact: { paths: ['*.password'], censor: '***' } }, stream)
  return { logger, lines }
}

describe("a request's logger", () => {
  it('writes lines with the request id, redacted like the parent, at the parent level', async () => {
    const { logger, lines } = parentLogger()
    const log = lazyRequestLogger(logger, { reqId: 'req-7' }, {})
    expect(log.level).toBe('info')
    log.debug('not written')
    log.error({ body: { password: 'hunter2' } }, 'failed')
    await new Promise((resolve) => setImmediate(resolve))
    expect(lines).toEqual([
      expect.objectContaining({ reqId: 'req-7', msg: 'failed', body: { password: '***' } }),
    ])
  })

  it('makes its child logger only when a line is written', () => {
    const { logger } = parentLogger()
    const child = vi.spyOn(logger, 'child')
    const log = lazyRequestLogger(logger, { reqId: 'req-8' }, {})
    expect(child).not.toHaveBeenCalled()
    log.warn('first')
    log.warn('second')
    expect(child).toHaveBeenCalledTimes(1)
  })
})
