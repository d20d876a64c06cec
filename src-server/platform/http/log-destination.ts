import pino, { type DestinationStream } from 'pino'

/**
 * Bytes collected before they go out in one write (about 190 request lines). With stdout on a file, as under a
 * service manager, 4 KB writes cost the line about 2 µs more per request than these (#17).
 */
const BATCH_BYTES = 32_768
/** When traffic is light, lines wait at most this long. */
const FLUSH_MS = 200
/** The most bytes of UTF-8 one UTF-16 code unit can take. */
const MAX_BYTES_PER_UNIT = 3

let stdout: DestinationStream | null = null

/**
 * stdout for log lines, written in batches of about 32 KB, or every 200 ms when traffic is light, and on exit: a
 * write per line cost a measurable share of a trivial request. Each line is encoded into the batch's buffer as it
 * comes: a batch kept as one string grown line by line is a chain of ~190 joined pieces that the write had to
 * copy into one before encoding it, about a twentieth of a trivial request's CPU (sonic-boom's own `minLength`
 * measures everything pending on every line, worse still). Each batch is written synchronously (pino's default),
 * so the exit handler can write the last one. One per process: every server built in it shares the timer and the
 * exit handler. A hard kill loses at most those 200 ms of lines.
 */
export function batchedStdout(): DestinationStream {
  if (stdout) return stdout
  const stream = pino.destination({ dest: 1, sync: true, contentMode: 'buffer' })
  // In buffer mode sonic-boom writes Buffers; its types know only strings.
  const writeBytes = (bytes: Buffer) => stream.write(bytes as unknown as string)
  let batch = Buffer.allocUnsafeSlow(BATCH_BYTES)
  let used = 0
  const flush = () => {
    if (used === 0) return
    const full = batch.subarray(0, used)
    // A new buffer for the next batch: the stream may still hold this one (a retried write to a full pipe).
    batch = Buffer.allocUnsafeSlow(BATCH_BYTES)
    used = 0
    writeBytes(full)
  }
  setInterval(flush, FLUSH_MS).unref()
  process.on('exit', flush)
  stdout = {
    write(line: string) {
      const mostBytes = line.length * MAX_BYTES_PER_UNIT
      if (used + mostBytes > BATCH_BYTES) {
        flush()
        // A line longer than a whole batch goes out on its own.
        if (mostBytes > BATCH_BYTES) return writeBytes(Buffer.from(line, 'utf8'))
      }
      used += batch.write(line, used, 'utf8')
    },
  }
  return stdout
}
