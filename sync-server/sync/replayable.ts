import { TrieRouter } from 'hono/router/trie-router'
import type { DeclaredRoute } from '../http/route.ts'

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/** Answers whether `METHOD path` is a mutation sync push may replay. */
export type IsReplayable = (method: string, path: string) => boolean

/**
 * The sync push allow-list, read from the routes' own declarations: every
 * signed-in mutation but those declared `replayable: false` (signing devices
 * out, push subscriptions and sync push itself happen online only). Built on
 * first use, once every route is registered; matched by Hono's own router, so
 * a path matches here exactly when it would reach that route.
 */
export function replayableRoutes(routes: () => DeclaredRoute[]): IsReplayable {
  let router: TrieRouter<true> | undefined
  return (method, path) => {
    if (!router) {
      router = new TrieRouter<true>()
      for (const r of routes()) {
        const { auth, replayable } = r.options
        if (MUTATING.has(r.method) && auth !== false && replayable !== false) {
          router.add(r.method, r.path, true)
        }
      }
    }
    return router.match(method, path)[0].length > 0
  }
}
