/**
 * Password hashes run at most `concurrency` at a time with at most `maxWaiting` in line; past that an attempt is
 * refused at once instead of waiting. scrypt runs on libuv's thread pool (4 threads by default): unqueued, a flood
 * of hashes filled the pool and every other hash, and every file read, waited behind the whole flood. Sign-ins and
 * registrations each have a queue, so a flood of one waits only in its own line.
 */
export class HashQueue {
  private running = 0
  private readonly waiting: Array<() => void> = []

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  /** The task's result once it has run, or null at once when the line is full. */
  tryRun<T>(task: () => Promise<T>): Promise<T> | null {
    if (this.running < this.concurrency) {
      this.running += 1
      return this.run(task)
    }
    if (this.waiting.length >= this.maxWaiting) return null
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.run(task))
  }

  private async run<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task()
    } finally {
      // The slot passes straight to the next in line, so a newcomer can never take it in between.
      const next = this.waiting.shift()
      if (next) next()
      else this.running -= 1
    }
  }
}
