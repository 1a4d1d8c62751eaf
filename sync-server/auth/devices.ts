import { Hono } from 'hono'
import { describeDevice, type SessionInfo } from '../../shared/session.ts'
import { requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError } from '../http/errors.ts'
import { parseId } from '../http/validate.ts'

const NOT_FOUND = 'This device is not signed in.'

/**
 * /api/user/sessions: the devices the current user is signed in on, and
 * signing them out (OWASP ASVS 3.3.4). A session is named by a public id,
 * never by its token or the token's hash.
 */
export const deviceRoutes = new Hono<AppEnv>()

type Row = {
  id: string
  userAgent: string | null
  createdAt: Date
  lastSeenAt: Date
  expiresAt: Date
  idHash: string
}

deviceRoutes.get('/user/sessions', async (c) => {
  const user = requireUser(c)
  const rows = await c.get('db')<Row[]>`
    SELECT public_id AS id, user_agent AS "userAgent", created_at AS "createdAt",
           last_seen_at AS "lastSeenAt", expires_at AS "expiresAt", id_hash AS "idHash"
    FROM sessions
    WHERE user_id = ${user.id} AND expires_at > now()
    ORDER BY last_seen_at DESC, created_at DESC`
  return c.json(
    rows.map(
      (r): SessionInfo => ({
        id: r.id,
        device: describeDevice(r.userAgent),
        createdAt: r.createdAt.toISOString(),
        lastSeenAt: r.lastSeenAt.toISOString(),
        expiresAt: r.expiresAt.toISOString(),
        current: r.idHash === user.sessionHash,
      }),
    ),
  )
})

/** Signs out every other device of the current user; this one stays signed in. */
deviceRoutes.post('/user/sessions/sign-out-others', async (c) => {
  const user = requireUser(c)
  const ended = await c.get('db')`
    DELETE FROM sessions WHERE user_id = ${user.id} AND id_hash <> ${user.sessionHash}`
  return c.json({ ended: ended.count })
})

/** Signs out one device of the current user (this one too, if named). */
deviceRoutes.post('/user/sessions/:id/sign-out', async (c) => {
  const user = requireUser(c)
  const id = parseId(c.req.param('id'), NOT_FOUND)
  const ended = await c.get('db')`
    DELETE FROM sessions WHERE public_id = ${id} AND user_id = ${user.id}`
  if (ended.count === 0) throw new ApiError(404, NOT_FOUND)
  return c.json({ ended: ended.count })
})
