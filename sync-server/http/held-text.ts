/** Per response class: the symbol under which its instances hold the body they were made with. */
const heldBodyKeys = new WeakMap<object, symbol | null>()

/**
 * The text a response was made with, while it is still held as made; else
 * undefined (read it with `text()` then).
 *
 * The Node server (@hono/node-server) puts a lighter class in place of the
 * global Response. It keeps a string body as given, under a symbol of its
 * own, and sends it to the socket from there. `text()` on it first builds
 * the fetch Response, with a stream for the body, then reads the stream:
 * pushing mutations, that was 6.6% of the server's CPU time (a CPU profile;
 * each replayed mutation's answer is read for its stored copy, issue 15).
 * Which symbol it is, is learnt once per class from a response made to find
 * out, so another version, another class or a body that is not a string all
 * answer undefined, never a wrong text.
 */
export function heldText(res: Response): string | undefined {
  const type = res.constructor as typeof Response
  let key = heldBodyKeys.get(type)
  if (key === undefined) {
    key = null
    try {
      const probe = new type('probe')
      key =
        Object.getOwnPropertySymbols(probe).find((symbol) => {
          const held = (probe as unknown as Record<symbol, unknown>)[symbol]
          return Array.isArray(held) && held[1] === 'probe'
        }) ?? null
    } catch {
      // Not a class that makes a response from a string: nothing held to read.
    }
    heldBodyKeys.set(type, key)
  }
  if (key === null) return undefined
  const held = (res as unknown as Record<symbol, unknown>)[key]
  return Array.isArray(held) && typeof held[1] === 'string' ? held[1] : undefined
}
