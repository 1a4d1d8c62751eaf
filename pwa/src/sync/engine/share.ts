/**
 * `next`, with every part that is deep-equal to the same part of `previous`
 * replaced by `previous`'s own object: a read that runs again after a change
 * answers the rows it did not change as the very objects it answered before,
 * so `memo` components given them skip their render (one new application on
 * a dashboard redraws its topic's card, not every card; issue 20). When
 * nothing differs, answers `previous` itself.
 *
 * Only arrays and plain objects are taken apart; any other value (a Date, a
 * Map, a class instance) is kept only when it is the same value (`Object.is`).
 *
 * @example
 * const a = [{ id: 1, n: 1 }, { id: 2, n: 1 }]
 * const b = shareEqual(a, [{ id: 1, n: 1 }, { id: 2, n: 2 }])
 * b[0] === a[0] // true
 * b[1] === a[1] // false
 */
export function shareEqual<T>(previous: unknown, next: T): T {
  if (Object.is(previous, next)) return next
  if (Array.isArray(next)) {
    if (!Array.isArray(previous)) return next
    let same = previous.length === next.length
    const out = next.map((item, i) => {
      const shared = i < previous.length ? shareEqual(previous[i], item) : item
      if (shared !== previous[i]) same = false
      return shared
    })
    return (same ? previous : out) as T
  }
  if (isPlainObject(next)) {
    if (!isPlainObject(previous)) return next
    const keys = Object.keys(next)
    let same = keys.length === Object.keys(previous).length
    const out: Record<string, unknown> = {}
    for (const key of keys) {
      const own = Object.hasOwn(previous, key)
      const before = own ? previous[key] : undefined
      const shared = shareEqual(before, next[key])
      if (shared !== before || !own) same = false
      // A key named "__proto__" (JSON may have one) is kept as a property, not made the prototype.
      if (key === '__proto__') {
        Object.defineProperty(out, key, {
          value: shared,
          enumerable: true,
          writable: true,
          configurable: true,
        })
      } else out[key] = shared
    }
    return (same ? previous : out) as T
  }
  return next
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
