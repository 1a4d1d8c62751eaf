import { Hono } from 'hono'
import { z } from 'zod'
import {
  applicationSchema,
  canViewApplication,
  checkDecideApplication,
  checkDecider,
  decideApplicationSchema,
} from '../../shared/application.ts'
import { callerOn, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError } from '../http/errors.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { enforce, found } from '../http/validate.ts'
import { messages } from '../notifications/messages.ts'
import { notify } from '../notifications/notify.ts'
import { lockTopic } from '../topics/queries.ts'
import { getApplication, listApplications, writeApplication } from './queries.ts'

const NOT_FOUND = 'Application not found'

/** /api/applications/{id}: the mentor accepts or rejects. */
export const applicationRoutes = new Hono<AppEnv>()

/** /api/my-applications: the caller's own applications. */
export const myApplicationRoutes = new Hono<AppEnv>()

myApplicationRoutes.get(
  '/',
  route({
    tag: 'Applications',
    errors: [401],
    summary: "The caller's applications",
    description: 'Every application of the caller, with topic and mentor.',
    response: {
      status: 200,
      schema: z.array(applicationSchema),
      description: 'Applications, newest first',
    },
  }),
  async (c) => {
    const user = requireUser(c)
    return c.json(await listApplications(c.get('db'), { menteeId: user.id }))
  },
)

applicationRoutes.patch(
  '/:id',
  route({
    tag: 'Applications',
    errors: [401, 403, 404, 409],
    summary: 'Accept or reject an application',
    description:
      'The mentor of the topic decides a pending application. A rejection needs a reason, which the mentee sees. Accepting never exceeds the topic’s maximum, also under concurrent accepts (409).',
    response: { status: 200, schema: applicationSchema, description: 'The decided application' },
  }),
  body(decideApplicationSchema),
  async (c) => {
    const { actor, id, db } = callerOn(c, NOT_FOUND)
    const application = found(await getApplication(db, id), NOT_FOUND)
    // Only people who may see the application learn that it exists.
    const parties = { menteeId: application.mentee.id, mentorId: application.topic.mentor.id }
    if (!canViewApplication(actor, parties)) throw new ApiError(404, NOT_FOUND)
    enforce(checkDecider(actor, { mentorId: application.topic.mentor.id }))
    const decision = await c.var.body()
    // The topic row is locked first: concurrent accepts on one topic run one at a time.
    const topic = found(await lockTopic(db, application.topicId), 'Topic not found')
    const [current] = await db<{ status: 'pending' | 'accepted' | 'rejected' }[]>`
    SELECT status FROM applications WHERE id = ${id} FOR UPDATE`
    enforce(checkDecideApplication(actor, topic, found(current, NOT_FOUND), decision.status))
    // The answer comes back with the update (what the topic update below changes is not in it).
    const decided = await writeApplication(
      db,
      db`
      UPDATE applications SET status = ${decision.status}, rejection_reason = ${decision.rejectionReason},
        updated_at = now()
      WHERE id = ${id}
      RETURNING *`,
    )
    if (decision.status === 'accepted') {
      await db`
      UPDATE topics SET current_mentees = (
        SELECT count(*) FROM applications WHERE topic_id = ${topic.id} AND status = 'accepted'
      ), updated_at = now()
      WHERE id = ${topic.id}`
      await notify(db, [application.mentee.id], messages.applicationAccepted(topic))
    } else {
      await notify(
        db,
        [application.mentee.id],
        messages.applicationRejected(topic, decision.rejectionReason ?? ''),
      )
    }
    return c.json(found(decided, NOT_FOUND))
  },
)
