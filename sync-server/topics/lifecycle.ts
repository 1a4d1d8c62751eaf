import { Hono } from 'hono'
import { CLOSED_BY_START, STATUS_CLOSED_BY_START } from '../../shared/application.ts'
import {
  checkConcludeTopic,
  checkStartTopic,
  concludeTopicSchema,
  topicSchema,
} from '../../shared/topic.ts'
import { callerOn } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { enforce, found } from '../http/validate.ts'
import { messages } from '../notifications/messages.ts'
import { acceptedMenteeIds, notify } from '../notifications/notify.ts'
import { getVisibleTopic, lockVisibleTopic } from './queries.ts'

const NOT_FOUND = 'Topic not found'

/** /api/topics/{id}/start and /conclude: the mentor runs a topic to its end. */
export const topicLifecycleRoutes = new Hono<AppEnv>()

topicLifecycleRoutes.post(
  '/:id/start',
  route({
    tag: 'Topics',
    errors: [401, 403, 404, 409],
    summary: 'Start a topic',
    description:
      'The mentor starts an approved topic. Still-pending applications are rejected with the reason "The topic has started"; accepted mentees are notified. No body.',
    response: { status: 200, schema: topicSchema, description: 'The started topic' },
  }),
  async (c) => {
    const { actor, id, db } = callerOn(c, NOT_FOUND)
    const topic = await lockVisibleTopic(db, actor, id)
    enforce(checkStartTopic(actor, topic))
    await db`UPDATE topics SET status = 'started', updated_at = now() WHERE id = ${id}`
    // Still-pending applications are closed: the topic is no longer open (shared/application.ts).
    const closed = await db<{ menteeId: string }[]>`
    UPDATE applications SET status = ${CLOSED_BY_START.status},
      rejection_reason = ${CLOSED_BY_START.rejectionReason}, updated_at = now()
    WHERE topic_id = ${id} AND status = ${STATUS_CLOSED_BY_START}
    RETURNING mentee_id AS "menteeId"`
    await notify(
      db,
      closed.map((r) => r.menteeId),
      messages.applicationRejected(topic, CLOSED_BY_START.rejectionReason),
    )
    await notify(db, await acceptedMenteeIds(db, id), messages.topicStarted(topic))
    return c.json(found(await getVisibleTopic(db, actor, id), NOT_FOUND))
  },
)

topicLifecycleRoutes.post(
  '/:id/conclude',
  route({
    tag: 'Topics',
    errors: [401, 403, 404, 409],
    summary: 'Conclude a topic',
    description: 'The mentor or an administrator concludes a started topic with mentor feedback.',
    response: { status: 200, schema: topicSchema, description: 'The concluded topic' },
  }),
  body(concludeTopicSchema),
  async (c) => {
    const { actor, id, db } = callerOn(c, NOT_FOUND)
    const topic = await lockVisibleTopic(db, actor, id)
    enforce(checkConcludeTopic(actor, topic))
    const { mentorFeedback } = await c.var.body()
    await db`
    UPDATE topics SET status = 'concluded', mentor_feedback = ${mentorFeedback}, updated_at = now()
    WHERE id = ${id}`
    await notify(db, await acceptedMenteeIds(db, id), messages.topicConcluded(topic))
    return c.json(found(await getVisibleTopic(db, actor, id), NOT_FOUND))
  },
)
