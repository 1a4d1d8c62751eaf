import { Hono } from 'hono'
import { z } from 'zod'
import {
  applicationSchema,
  checkApply,
  checkListApplications,
  myApplicationSchema,
  type PendingLimit,
} from '../../shared/application.ts'
import { listApplications, writeApplication } from '../applications/queries.ts'
import type { Db } from '../db/connect.ts'
import { actorOf, callerOn } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError } from '../http/errors.ts'
import { route } from '../http/route.ts'
import { enforce, found } from '../http/validate.ts'
import { messages } from '../notifications/messages.ts'
import { notify } from '../notifications/notify.ts'
import { readProgrammeSettings } from '../settings/queries.ts'
import { getVisibleTopic, lockVisibleTopic } from './queries.ts'

const NOT_FOUND = 'Topic not found'

/** /api/topics/{id}/applications, /my-application and /apply. */
export const topicApplicationRoutes = new Hono<AppEnv>()

topicApplicationRoutes.get(
  '/:id/applications',
  route({
    tag: 'Applications',
    errors: [401, 403, 404],
    summary: "A topic's applications",
    description: 'For the mentor of the topic and administrators.',
    response: {
      status: 200,
      schema: z.array(applicationSchema),
      description: 'Applications, newest first',
    },
  }),
  async (c) => {
    const { user, id, db } = callerOn(c, NOT_FOUND)
    const topic = found(await getVisibleTopic(db, actorOf(user), id), NOT_FOUND)
    enforce(checkListApplications(actorOf(user), topic))
    return c.json(await listApplications(db, { topicId: id }))
  },
)

topicApplicationRoutes.get(
  '/:id/my-application',
  route({
    tag: 'Applications',
    errors: [401, 404],
    summary: "The caller's application to a topic",
    description: 'The application, or null when the caller has not applied.',
    response: { status: 200, schema: myApplicationSchema, description: 'The application or null' },
  }),
  async (c) => {
    const { user, id, db } = callerOn(c, NOT_FOUND)
    found(await getVisibleTopic(db, actorOf(user), id), NOT_FOUND)
    const [application] = await listApplications(db, { topicId: id, menteeId: user.id })
    return c.json(application ?? null)
  },
)

topicApplicationRoutes.post(
  '/:id/apply',
  route({
    tag: 'Applications',
    errors: [401, 403, 404, 409],
    summary: 'Apply to a topic',
    description:
      'Creates a pending application and notifies the mentor. Only for an approved topic that is not full, that is not the caller’s own and that the caller has not applied to yet, and while the caller has fewer pending applications than the programme’s limit, if it sets one (409 otherwise, also under concurrent applies). No body.',
    response: { status: 201, schema: applicationSchema, description: 'The created application' },
  }),
  async (c) => {
    const { user, actor, id, db } = callerOn(c, NOT_FOUND)
    const topic = await lockVisibleTopic(db, actor, id)
    const [existing] = await db`
    SELECT 1 FROM applications WHERE topic_id = ${id} AND mentee_id = ${user.id}`
    enforce(checkApply(actor, topic, existing !== undefined, await pendingLimit(db, user.id)))
    const application = await writeApplication(
      db,
      db`
      INSERT INTO applications (topic_id, mentee_id) VALUES (${id}, ${user.id})
      ON CONFLICT (topic_id, mentee_id) DO NOTHING RETURNING *`,
    )
    if (!application) throw new ApiError(409, 'You have already applied to this topic.')
    await notify(db, [topic.mentorId], messages.newApplication(topic, application.mentee))
    return c.json(application, 201)
  },
)

/**
 * The programme's limit on pending applications and how many the mentee has.
 * With a limit, the mentee's row is locked first, so their concurrent applies
 * (to different topics) count one after another and never pass it together.
 */
async function pendingLimit(db: Db, menteeId: string): Promise<PendingLimit | undefined> {
  const { pendingApplicationLimit: limit } = await readProgrammeSettings(db)
  if (limit === null) return undefined
  await db`SELECT 1 FROM users WHERE id = ${menteeId} FOR NO KEY UPDATE`
  const [row] = await db<{ pending: number }[]>`
    SELECT count(*)::int AS pending FROM applications
    WHERE mentee_id = ${menteeId} AND status = 'pending'`
  return { pending: row?.pending ?? 0, limit }
}
