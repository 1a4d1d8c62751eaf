import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import type { AppEnv } from './env.ts'

/**
 * The address of the client that sent a request. Behind a reverse proxy
 * (TRUST_PROXY=true) it is the last X-Forwarded-For entry, the one the proxy
 * itself appended; earlier entries come from the client and prove nothing.
 */
export function clientAddress(c: Context<AppEnv>): string {
  if (c.get('deps').config.TRUST_PROXY) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim()
    if (forwarded) return forwarded
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // A request that did not arrive over a socket (app.request in-process).
    return 'local'
  }
}
