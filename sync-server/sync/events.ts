import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import { actorOf } from '../http/current-user.ts'
import type { AppEnv, SessionUser } from '../http/env.ts'
import { type HubOptions, hubFor } from './hub.ts'

export type EventStreamOptions = HubOptions & { heartbeatMs: number }

/** The open streams of this process: how each one ends, with an optional reconnect hint. */
const openStreams = new Set<(retryMs?: number) => void>()

/**
 * Ends every open event stream, for a server that is shutting down: clients
 * reconnect (to another instance, or to this one once it is back) and pull.
 * With `retryMs`, each stream first tells its browser to reconnect after
 * between one and two times that many milliseconds, spread so that the
 * clients of a stopped instance do not all arrive at once. Answers how many
 * streams it ended.
 */
export function closeEventStreams(retryMs?: number): number {
  const count = openStreams.size
  for (const end of openStreams) end(retryMs)
  return count
}

/**
 * GET /api/sync/events for a signed-in user: `ready` once listening, `poke`
 * whenever something the user may see changed, and a comment line every
 * `heartbeatMs` so proxies keep the stream open. Each heartbeat also checks
 * the session: once the user signed out or the session expired, the stream
 * ends (the browser's reconnect then gets a 401). Everything is let go when
 * the client disconnects.
 */
export async function eventStream(
  c: Context<AppEnv>,
  user: SessionUser,
  options: EventStreamOptions,
): Promise<Response> {
  const { sql } = c.get('deps')
  // Listen before the stream says hello: a change right after the client's first pull still pokes it.
  let poke = () => {}
  const unsubscribe = await hubFor(sql, options).subscribe(actorOf(user), () => poke())
  return streamSSE(c, async (stream) => {
    let finish = () => {}
    const ended = new Promise<void>((resolve) => {
      finish = resolve
    })
    const end = (retryMs?: number) => {
      if (retryMs === undefined || stream.aborted) return finish()
      const wait = Math.round(retryMs * (1 + Math.random()))
      void stream.write(`retry: ${wait}\n\n`).then(finish, finish)
    }
    openStreams.add(end)
    stream.onAbort(finish)
    c.req.raw.signal.addEventListener('abort', finish, { once: true })
    if (stream.aborted || c.req.raw.signal.aborted) finish()

    poke = () => void stream.writeSSE({ event: 'poke', data: '{}' })
    const beat = async () => {
      try {
        const [alive] = await sql`
          SELECT 1 FROM sessions WHERE id_hash = ${user.sessionHash} AND expires_at > now()`
        if (!alive) return finish()
      } catch {
        // The database is unreachable: keep the stream, nothing can change meanwhile.
      }
      await stream.write(': ping\n\n')
    }
    const heartbeat = setInterval(() => void beat(), options.heartbeatMs)
    try {
      await stream.writeSSE({
        event: 'ready',
        data: JSON.stringify({ heartbeatMs: options.heartbeatMs }),
        retry: 5000,
      })
      await ended
    } finally {
      clearInterval(heartbeat)
      openStreams.delete(end)
      unsubscribe()
    }
  })
}
