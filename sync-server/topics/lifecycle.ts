import { Hono } from 'hono'
import { TOPIC_STARTED_REJECTION_REASON } from '../../shared/constants.ts'
import { checkConcludeTopic, checkStartTopic, concludeTopicSchema } from '../../shared/topic.ts'
import { actorOf, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { enforce, found, parseId, readBody } from '../http/validate.ts'
import { messages } from '../notifications/messages.ts'
import { acceptedMenteeIds, notify } from '../notifications/notify.ts'
import { getVisibleTopic, lockVisibleTopic } from './queries.ts'

const NOT_FOUND = 'Topic not found'

/** /api/topics/{id}/start and /conclude: the mentor runs a topic to its end. */
export const topicLifecycleRoutes = new Hono<AppEnv>()

topicLifecycleRoutes.post('/:id/start', async (c) => {
  const user = requireUser(c)
  const actor = actorOf(user)
  const id = parseId(c.req.param('id'), NOT_FOUND)
  const db = c.get('db')
  const topic = await lockVisibleTopic(db, actor, id)
  enforce(checkStartTopic(actor, topic))
  await db`UPDATE topics SET status = 'started', updated_at = now() WHERE id = ${id}`
  // Still-pending applications are closed: the topic is no longer open (ARCHITECTURE.md).
  const closed = await db<{ menteeId: string }[]>`
    UPDATE applications SET status = 'rejected', rejection_reason = ${TOPIC_STARTED_REJECTION_REASON},
      updated_at = now()
    WHERE topic_id = ${id} AND status = 'pending'
    RETURNING mentee_id AS "menteeId"`
  await notify(
    db,
    closed.map((r) => r.menteeId),
    messages.applicationRejected(topic, TOPIC_STARTED_REJECTION_REASON),
  )
  await notify(db, await acceptedMenteeIds(db, id), messages.topicStarted(topic))
  return c.json(found(await getVisibleTopic(db, actor, id), NOT_FOUND))
})

topicLifecycleRoutes.post('/:id/conclude', async (c) => {
  const user = requireUser(c)
  const actor = actorOf(user)
  const id = parseId(c.req.param('id'), NOT_FOUND)
  const db = c.get('db')
  const topic = await lockVisibleTopic(db, actor, id)
  enforce(checkConcludeTopic(actor, topic))
  const { mentorFeedback } = await readBody(c, concludeTopicSchema)
  await db`
    UPDATE topics SET status = 'concluded', mentor_feedback = ${mentorFeedback}, updated_at = now()
    WHERE id = ${id}`
  await notify(db, await acceptedMenteeIds(db, id), messages.topicConcluded(topic))
  return c.json(found(await getVisibleTopic(db, actor, id), NOT_FOUND))
})
