/**
 * `compute` run once per object (a document's list of candidates, its pages, one candidate) and kept while the
 * object lives: what every candidate's features compare with is worked out once per document, not per candidate.
 */
export function oncePer<Key extends object, Value>(compute: (key: Key) => Value): (key: Key) => Value {
  const computed = new WeakMap<Key, Value>()
  return (key) => {
    if (computed.has(key)) return computed.get(key) as Value
    const value = compute(key)
    computed.set(key, value)
    return value
  }
}
