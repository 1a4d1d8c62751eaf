import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { clientAddress } from './client-address.ts'
import type { AppEnv } from './env.ts'
import { problemResponse } from './errors.ts'

export type RateLimit = {
  /** Names the counter; each client address has one per name. */
  name: string
  /** Requests allowed per window. */
  limit: (c: Context<AppEnv>) => number
  windowSeconds: number
  /** The answer once the limit is reached; a problem+json 429 unless given. */
  refuse?: (c: Context<AppEnv>, retryAfterSeconds: number) => Response | Promise<Response>
}

/**
 * Counts requests per client address in fixed windows kept in Postgres, so
 * every server instance shares the count, and answers 429 with Retry-After
 * once a window's limit is used up. Counting runs on the pool, outside the
 * request's transaction: a request that fails still counts.
 */
export function rateLimit(options: RateLimit) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { sql } = c.get('deps')
    const bucket = `${options.name}:${clientAddress(c)}`
    const window = options.windowSeconds
    const [row] = await sql<{ hits: number; retryAfter: number }[]>`
      INSERT INTO rate_limits AS r (bucket, window_start, hits) VALUES (${bucket}, now(), 1)
      ON CONFLICT (bucket) DO UPDATE SET
        window_start = CASE WHEN r.window_start <= now() - make_interval(secs => ${window})
                            THEN now() ELSE r.window_start END,
        hits = CASE WHEN r.window_start <= now() - make_interval(secs => ${window})
                    THEN 1 ELSE r.hits + 1 END
      RETURNING hits,
        ceil(extract(epoch FROM r.window_start + make_interval(secs => ${window}) - now()))::int
          AS "retryAfter"`
    if (row && row.hits > options.limit(c)) {
      const retryAfter = Math.max(1, row.retryAfter)
      const res = options.refuse
        ? await options.refuse(c, retryAfter)
        : problemResponse(429, 'Too many requests. Wait a moment and try again.')
      res.headers.set('retry-after', String(retryAfter))
      return res
    }
    await next()
  })
}
