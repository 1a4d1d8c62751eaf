import { bodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './env.ts'
import { problemResponse } from './errors.ts'
import { currentRouteOptions } from './route.ts'

/**
 * Refuses request bodies over `maxBytes` with 413. A declared Content-Length
 * is checked before the body is touched, so the Node adapter can drain the
 * unread upload and the client receives the 413 instead of a reset
 * connection; chunked bodies are counted as they stream in. A route declared
 * with a larger `bodyLimitBytes` (a batch of bodies) gets that limit instead.
 */
export function limitBody(defaultMaxBytes: number) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const maxBytes = Math.max(defaultMaxBytes, currentRouteOptions(c).bodyLimitBytes ?? 0)
    const tooLarge = () =>
      problemResponse(413, `The request body is larger than ${maxBytes} bytes.`)
    const declared = c.req.header('content-length')
    if (declared !== undefined && !c.req.header('transfer-encoding')) {
      if (Number(declared) > maxBytes) {
        const res = tooLarge()
        res.headers.set('connection', 'close')
        return res
      }
      return next()
    }
    return bodyLimit({ maxSize: maxBytes, onError: tooLarge })(c, next)
  })
}
