import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './env.ts'
import { problemResponse } from './errors.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests that a browser sends from another site,
 * whatever their content type: Sec-Fetch-Site when the browser sends it, else
 * an Origin that is not this server's. Clients that send neither (curl,
 * scripts) are not browsers a page can steer, and pass.
 */
export const refuseCrossSite = createMiddleware<AppEnv>(async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method)) {
    const site = c.req.header('sec-fetch-site')
    const origin = c.req.header('origin')
    const crossSite = site !== undefined && site !== 'same-origin' && site !== 'none'
    if (
      crossSite ||
      (site === undefined &&
        origin !== undefined &&
        !sameOrigin(origin, c.req.url, c.req.header('host'), c.get('deps').config.PUBLIC_URL))
    ) {
      return problemResponse(403, 'This request came from another site and was refused.')
    }
  }
  await next()
})

/**
 * Whether `origin` is this server: the address users open (PUBLIC_URL, which
 * a TLS-terminating proxy makes https while the request arrives over http),
 * or the request's own scheme, host and port. The scheme counts: a page on
 * https://host:port is another origin than http://host:port.
 */
function sameOrigin(
  origin: string,
  requestUrl: string,
  host: string | undefined,
  publicUrl: string | undefined,
): boolean {
  if (origin === 'null') return false
  try {
    const o = new URL(origin)
    if (publicUrl !== undefined && o.origin === new URL(publicUrl).origin) return true
    const own = new URL(requestUrl)
    return o.protocol === own.protocol && o.host === (host ?? own.host)
  } catch {
    return false
  }
}
