import type { FastifyBaseLogger } from 'fastify'
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino'

/**
 * A request's logger (`request.log`, bound to its request id), made on its first line. Fastify makes one per
 * request, and making it costs a pass of the redaction rules over its bindings (their wildcard paths apply there
 * too), while most requests never log through it: the one line per request has a logger of its own.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | null = null

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get made(): FastifyBaseLogger {
    this.#made ??= this.parent.child(this.bindings, this.options)
    return this.#made
  }

  get level() {
    return (this.#made ?? this.parent).level
  }
  set level(level: string) {
    this.made.level = level
  }

  // Defined once on the prototype below: fields would cost a closure each per request.
  declare fatal: LogFn
  declare error: LogFn
  declare warn: LogFn
  declare info: LogFn
  declare debug: LogFn
  declare trace: LogFn
  declare silent: LogFn

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options)
  }
}

for (const method of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const)
  LazyRequestLogger.prototype[method] = function (this: LazyRequestLogger, ...args: Parameters<LogFn>) {
    return this.made[method](...args)
  }

/** Fastify's `childLoggerFactory`: the request's logger, made when first used. */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(parent, bindings, options)
}
