/**
 * A statement's result now (SQLite: a prepared statement runs at once) or later (PostgreSQL: a round trip). Hot
 * paths return this instead of a promise so that SQLite's side makes none: each async call and `await` costs a
 * purchase CPU and garbage of its own (a promise, its reaction and a turn of the microtask queue), about as much,
 * over a purchase's dozens of them, as the statements they wait for.
 */
export type Maybe<T> = T | Promise<T>

/** `next` applied to `value`: at once when it is there already, once it is when it is a promise. */
export function andThen<T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(next) : next(value)
}
