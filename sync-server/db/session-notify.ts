import type { Sql } from './connect.ts'

type Listener = (channel: string, payload: string) => void

/** The embedded databases' one sessions: who hears their notifications. */
const sessions = new WeakMap<Sql, Set<Listener>>()

/**
 * For openDatabase: `sql` is embedded PGlite, a single database session on
 * one connection, whose notifications postgres.js hands to `onnotify`. Answers
 * that `onnotify`. (A NOTIFY on PGlite reaches only the session's current
 * connection, so `sql.listen`, which opens a connection of its own, hears
 * nothing; the pool's one connection hears every commit's, its own included.)
 */
export function sessionNotifier(): { onnotify: Listener; register: (sql: Sql) => void } {
  const listeners = new Set<Listener>()
  return {
    onnotify: (channel, payload) => {
      for (const listener of listeners) listener(channel, payload)
    },
    register: (sql) => sessions.set(sql, listeners),
  }
}

/**
 * On an embedded database: LISTENs on `channel` in its one session and calls
 * `fn` with each payload. Answers undefined on any other database (use
 * `sql.listen` there), else a check to run now and then: it answers false
 * (and listens again) when the session had lost the LISTEN, so the caller
 * knows notifications may have been missed.
 */
export async function listenInSession(
  sql: Sql,
  channel: string,
  fn: (payload: string) => void,
): Promise<(() => Promise<boolean>) | undefined> {
  const listeners = sessions.get(sql)
  if (!listeners) return undefined
  const listen = () => sql.unsafe(`LISTEN "${channel.replaceAll('"', '""')}"`)
  listeners.add((c, payload) => {
    if (c === channel) fn(payload)
  })
  await listen()
  return async () => {
    const [row] = await sql<{ listening: boolean }[]>`
      SELECT ${channel} = ANY (ARRAY(SELECT pg_listening_channels())) AS listening`
    if (row?.listening) return true
    await listen()
    return false
  }
}
