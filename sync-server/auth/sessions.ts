import { createHash, randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import type { Config } from '../config.ts'
import type { Db } from '../db/connect.ts'
import type { AppEnv } from '../http/env.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** Rolling expiry is refreshed at most once a minute, not on every request. */
const TOUCH_INTERVAL_MS = 60 * 1000

function sessionCookieName(config: Config): string {
  return config.NODE_ENV === 'production' ? '__Host-pairwise_session' : 'pairwise_session'
}

function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex')
}

/**
 * Stores a new session for a user and answers its id: a random 256-bit value
 * of which only the SHA-256 reaches the database. Run it in the sign-in's
 * transaction; set the cookie with setSessionCookie once that committed.
 */
export async function createSession(
  db: Db,
  config: Config,
  userId: string,
  userAgent?: string,
): Promise<string> {
  const id = randomBytes(32).toString('base64url')
  // The idle expiry comes first: loadConfig ensures SESSION_IDLE_DAYS <= SESSION_MAX_DAYS.
  const expiresAt = new Date(Date.now() + config.SESSION_IDLE_DAYS * DAY_MS)
  await db`
    INSERT INTO sessions (id_hash, user_id, expires_at, user_agent)
    VALUES (${hashSessionId(id)}, ${userId}, ${expiresAt}, ${userAgent?.slice(0, 512) || null})`
  return id
}

/**
 * Sets the session cookie, and ends the session the browser had before, if
 * any: a sign-in always gets a fresh id (no session fixation).
 */
export async function setSessionCookie<E extends AppEnv>(
  c: Context<E>,
  db: Db,
  id: string,
): Promise<void> {
  const { config } = c.get('deps')
  const previous = getCookie(c, sessionCookieName(config))
  if (previous && previous !== id && previous.length <= 128) {
    await db`DELETE FROM sessions WHERE id_hash = ${hashSessionId(previous)}`
  }
  setCookie(c, sessionCookieName(config), id, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: config.NODE_ENV === 'production',
    maxAge: config.SESSION_MAX_DAYS * 24 * 60 * 60,
  })
}

/** createSession and setSessionCookie in one, for a sign-in inside the request's transaction. */
export async function startSession<E extends AppEnv>(
  c: Context<E>,
  db: Db,
  userId: string,
): Promise<void> {
  const id = await createSession(db, c.get('deps').config, userId, c.req.header('user-agent'))
  await setSessionCookie(c, db, id)
}

export async function endSession<E extends AppEnv>(c: Context<E>, db: Db): Promise<void> {
  const { config } = c.get('deps')
  const user = c.get('user')
  if (user) await db`DELETE FROM sessions WHERE id_hash = ${user.sessionHash}`
  deleteCookie(c, sessionCookieName(config), {
    path: '/',
    secure: config.NODE_ENV === 'production',
  })
}

type SessionRow = {
  idHash: string
  userId: string
  username: string
  fullName: string
  isAdmin: boolean
  lastSeenAt: Date
  createdAt: Date
}

/**
 * Reads the session cookie and sets `user` (or null). Sessions expire after
 * SESSION_IDLE_DAYS without use and SESSION_MAX_DAYS after sign-in, whichever
 * comes first. The user row is read on every request, so revoking admin
 * rights takes effect on the next request.
 */
export const loadSession = createMiddleware<AppEnv>(async (c, next) => {
  // A mutation a sync push replays: the push read the session once for the whole batch.
  const batch = c.env?.batch
  if (batch) {
    c.set('user', batch.user)
    await next()
    return
  }
  const { sql, config } = c.get('deps')
  c.set('user', null)
  const id = getCookie(c, sessionCookieName(config))
  if (id && id.length <= 128) {
    const idHash = hashSessionId(id)
    const [row] = await sql<SessionRow[]>`
      SELECT s.id_hash AS "idHash", s.user_id AS "userId", s.last_seen_at AS "lastSeenAt",
             s.created_at AS "createdAt", u.username, u.full_name AS "fullName",
             u.is_admin AS "isAdmin"
      FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id_hash = ${idHash} AND s.expires_at > now()
        AND s.created_at > now() - make_interval(days => ${config.SESSION_MAX_DAYS})`
    if (row) {
      c.set('user', {
        id: row.userId,
        username: row.username,
        fullName: row.fullName,
        isAdmin: row.isAdmin,
        sessionHash: row.idHash,
      })
      if (Date.now() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
        const idleEnd = Date.now() + config.SESSION_IDLE_DAYS * DAY_MS
        const absoluteEnd = row.createdAt.getTime() + config.SESSION_MAX_DAYS * DAY_MS
        await sql`
          UPDATE sessions SET last_seen_at = now(), expires_at = ${new Date(Math.min(idleEnd, absoluteEnd))}
          WHERE id_hash = ${idHash}`
      }
    }
  }
  await next()
})
