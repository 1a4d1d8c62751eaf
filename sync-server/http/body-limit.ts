import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './env.ts'
import { problemResponse } from './errors.ts'

/**
 * Refuses request bodies over `maxBytes` with 413. A declared Content-Length
 * is checked before the body is touched, so the Node adapter can drain the
 * unread upload and the client receives the 413 instead of a reset
 * connection; chunked bodies are counted as they stream in. Requests for
 * which `exempt` answers true pass unchecked (a route that sets its own limit).
 */
export function limitBody(maxBytes: number, exempt?: (c: Context<AppEnv>) => boolean) {
  const tooLarge = () => problemResponse(413, `The request body is larger than ${maxBytes} bytes.`)
  const streamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge })
  return createMiddleware<AppEnv>(async (c, next) => {
    if (exempt?.(c)) return next()
    const declared = c.req.header('content-length')
    if (declared !== undefined && !c.req.header('transfer-encoding')) {
      if (Number(declared) > maxBytes) {
        const res = tooLarge()
        res.headers.set('connection', 'close')
        return res
      }
      return next()
    }
    return streamed(c, next)
  })
}
