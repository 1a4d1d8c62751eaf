import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './env.ts'

/**
 * The state of one server process that its shutdown needs: whether it is
 * draining (a load balancer should send no more requests) and how many
 * requests it is still handling.
 *
 * @example
 * const lifecycle = new Lifecycle()
 * const app = createApp(deps, { lifecycle })
 * lifecycle.startDraining()
 * await lifecycle.idle()
 */
export class Lifecycle {
  private drainingSince: number | undefined
  private inFlight = 0
  private waiters: (() => void)[] = []

  get draining(): boolean {
    return this.drainingSince !== undefined
  }

  /** From now on /healthz answers 503 and answers ask clients to close their connection. */
  startDraining(): void {
    this.drainingSince ??= Date.now()
  }

  /** Requests whose handler has not returned yet. */
  get requestsInFlight(): number {
    return this.inFlight
  }

  /** Resolves once no request is being handled (at once when none is). */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  /** Counts requests; while draining, ends keep-alive connections after their answer. */
  readonly track = createMiddleware<AppEnv>(async (c, next) => {
    this.inFlight += 1
    try {
      await next()
    } finally {
      // A keep-alive client (a load balancer's pool) would otherwise keep sending to an
      // instance that is about to stop listening; with `Connection: close` it opens a new
      // connection, which the balancer routes to an instance that is up.
      if (this.draining) {
        try {
          c.res.headers.set('connection', 'close')
        } catch {
          // Headers of a replayed or streamed answer may be immutable: the server's close ends it.
        }
      }
      this.inFlight -= 1
      if (this.inFlight === 0) for (const resolve of this.waiters.splice(0)) resolve()
    }
  })
}
