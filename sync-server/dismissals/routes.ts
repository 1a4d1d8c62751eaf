import { Hono } from 'hono'
import { z } from 'zod'
import { type Dismissal, dismissalSchema, dismissInputSchema } from '../../shared/dismissal.ts'
import { callerOn, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { found } from '../http/validate.ts'
import { getVisibleTopic } from '../topics/queries.ts'
import { dismissalColumns } from './queries.ts'

const NOT_FOUND = 'Topic not found'

/** /api/topics/{id}/dismissal: "Not interested" on a recommended topic. */
export const topicDismissalRoutes = new Hono<AppEnv>()

/** /api/dismissals: the caller's own marks. */
export const dismissalRoutes = new Hono<AppEnv>()

topicDismissalRoutes.post(
  '/:id/dismissal',
  route({
    tag: 'Recommendations',
    errors: [401, 404],
    summary: 'Mark a topic "Not interested"',
    description:
      'Remembers that the caller is not interested in a topic (`dismissed`, default true), so it is no longer recommended to them; `dismissed: false` takes it back. Synced to the caller’s devices only. A topic the caller may not see answers 404.',
    response: { status: 200, schema: dismissalSchema, description: 'The mark as it now stands' },
  }),
  body(dismissInputSchema),
  async (c) => {
    const { user, actor, id, db } = callerOn(c, NOT_FOUND)
    found(await getVisibleTopic(db, actor, id), NOT_FOUND)
    const { dismissed } = await c.var.body()
    await db`
    INSERT INTO topic_dismissals (user_id, topic_id, dismissed)
    VALUES (${user.id}, ${id}, ${dismissed})
    ON CONFLICT (user_id, topic_id) DO UPDATE SET dismissed = EXCLUDED.dismissed, updated_at = now()
    WHERE topic_dismissals.dismissed IS DISTINCT FROM EXCLUDED.dismissed`
    const [row] = await db<Dismissal[]>`
    SELECT ${dismissalColumns(db)} FROM topic_dismissals d
    WHERE d.user_id = ${user.id} AND d.topic_id = ${id}`
    return c.json(found(row, NOT_FOUND))
  },
)

dismissalRoutes.get(
  '/',
  route({
    tag: 'Recommendations',
    errors: [401],
    summary: 'The caller’s "Not interested" marks',
    description:
      'Every mark the caller set, also those taken back (`dismissed: false`), newest first.',
    response: {
      status: 200,
      schema: z.array(dismissalSchema),
      description: 'Marks, newest first',
    },
  }),
  async (c) => {
    const user = requireUser(c)
    const db = c.get('db')
    return c.json(
      await db<Dismissal[]>`
      SELECT ${dismissalColumns(db)} FROM topic_dismissals d
      WHERE d.user_id = ${user.id} ORDER BY d.updated_at DESC, d.topic_id`,
    )
  },
)
