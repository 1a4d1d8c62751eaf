/**
 * The deepest nesting a request body may have. The API's own bodies nest at
 * most three levels; the limit keeps recursive code (JSON.stringify, zod,
 * Postgres' jsonb) far from its stack limit whatever a client sends.
 */
export const MAX_JSON_DEPTH = 64

/**
 * Whether a parsed JSON value nests arrays and objects more than `max` levels
 * deep. Iterative, so that asking about a value nested 100,000 levels deep is
 * itself safe.
 *
 * @example
 * nestsDeeperThan({ a: [1] }, 1) // true
 */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }]
  while (stack.length > 0) {
    const top = stack.pop()
    if (!top || top.value === null || typeof top.value !== 'object') continue
    const depth = top.depth + 1
    if (depth > max) return true
    const children = Array.isArray(top.value) ? top.value : Object.values(top.value)
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth })
    }
  }
  return false
}
