import { Hono } from 'hono'
import { z } from 'zod'
import {
  describeDevice,
  endedSessionsSchema,
  type SessionInfo,
  sessionInfoSchema,
} from '../../shared/session.ts'
import { requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError } from '../http/errors.ts'
import { route } from '../http/route.ts'
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

deviceRoutes.get(
  '/',
  route({
    tag: 'Sign-in',
    errors: [401],
    summary: 'Signed-in devices',
    description:
      'The devices (sessions) the caller is signed in on, most recently used first, with the one of this request marked `current`.',
    response: { status: 200, schema: z.array(sessionInfoSchema), description: 'The sessions' },
  }),
  async (c) => {
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
  },
)

/** Signs out every other device of the current user; this one stays signed in. */
deviceRoutes.post(
  '/sign-out-others',
  route({
    tag: 'Sign-in',
    replayable: false,
    errors: [401],
    summary: 'Sign out every other device',
    description: 'Ends every session of the caller but the one of this request. No body.',
    response: { status: 200, schema: endedSessionsSchema, description: 'How many ended' },
  }),
  async (c) => {
    const user = requireUser(c)
    const ended = await c.get('db')`
    DELETE FROM sessions WHERE user_id = ${user.id} AND id_hash <> ${user.sessionHash}`
    return c.json({ ended: ended.count })
  },
)

/** Signs out one device of the current user (this one too, if named). */
deviceRoutes.post(
  '/:id/sign-out',
  route({
    tag: 'Sign-in',
    replayable: false,
    errors: [401, 404],
    summary: 'Sign out one device',
    description:
      'Ends one of the caller’s sessions, named by the `id` GET /user/sessions answers (this one too). No body.',
    response: { status: 200, schema: endedSessionsSchema, description: 'How many ended (1)' },
  }),
  async (c) => {
    const user = requireUser(c)
    const id = parseId(c.req.param('id'), NOT_FOUND)
    const ended = await c.get('db')`
    DELETE FROM sessions WHERE public_id = ${id} AND user_id = ${user.id}`
    if (ended.count === 0) throw new ApiError(404, NOT_FOUND)
    return c.json({ ended: ended.count })
  },
)
