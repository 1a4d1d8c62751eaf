import type { Context } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'
import type { AppEnv } from './env.ts'
import { problemResponse } from './errors.ts'
import type { DeclaredRoute } from './route.ts'

/**
 * The API's last handler, for requests no route took: 405 with `Allow` when
 * the path is a declared route's under another method, 404 otherwise. Built
 * on first use from the declared routes, matched by Hono's own router.
 */
export function noSuchEndpoint(routes: () => DeclaredRoute[]) {
  let router: TrieRouter<string> | undefined
  return (c: Context<AppEnv>) => {
    if (!router) {
      router = new TrieRouter<string>()
      // Registered for every method, each answering the method it was declared with.
      for (const r of routes()) router.add('ALL', r.path, r.method)
    }
    const allowed = [...new Set(router.match(c.req.method, c.req.path)[0].map(([m]) => m))]
    if (allowed.length === 0) {
      return problemResponse(404, `There is no API endpoint ${c.req.method} ${c.req.path}.`)
    }
    if (allowed.includes('GET')) allowed.push('HEAD')
    const res = problemResponse(
      405,
      `${c.req.path} does not take ${c.req.method.slice(0, 10)}; it takes ${allowed.join(', ')}.`,
    )
    res.headers.set('allow', allowed.join(', '))
    return res
  }
}
