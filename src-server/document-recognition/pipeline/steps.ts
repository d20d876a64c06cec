/**
 * Runs one pipeline step, retrying it `retries` times; the final error names the step so a failed run says
 * where it stopped. Aborts (timeout, shutdown) are not retried.
 */
export async function runStep<T>(
  name: string,
  retries: number,
  signal: AbortSignal,
  work: () => Promise<T>,
  onRetry?: (attempt: number, error: unknown) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    signal.throwIfAborted()
    try {
      return await work()
    } catch (error) {
      if (signal.aborted) throw signal.reason
      if (attempt > retries) throw new StepError(name, error)
      onRetry?.(attempt, error)
    }
  }
}

/** A failure whose message already says what failed, with a code: `StepError` keeps it as it is. */
export class RunFailure extends Error {
  constructor(code: string, message: string) {
    super(`${code}: ${message}`)
    this.name = 'RunFailure'
  }
}

export class StepError extends Error {
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(
      cause instanceof RunFailure
        ? cause.message
        : `${step} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    )
    this.name = 'StepError'
  }
}
