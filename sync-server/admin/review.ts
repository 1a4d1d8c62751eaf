import { Hono } from 'hono'
import { checkReviewTopic, reviewDecisionSchema } from '../../shared/topic.ts'
import { actorOf, requireAdmin } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { enforce, found, parseId, readBody } from '../http/validate.ts'
import { messages } from '../notifications/messages.ts'
import { notify } from '../notifications/notify.ts'
import { getVisibleTopic, lockVisibleTopic } from '../topics/queries.ts'

const NOT_FOUND = 'Topic not found'

/** /api/admin/topics/{id}/review: an administrator approves or rejects a proposed topic. */
export const adminReviewRoutes = new Hono<AppEnv>()

adminReviewRoutes.post('/topics/:id/review', async (c) => {
  // Reviewing is for administrators, whatever the topic: refuse others before looking it up.
  const user = requireAdmin(c, 'Only administrators can review topics.')
  const actor = actorOf(user)
  const id = parseId(c.req.param('id'), NOT_FOUND)
  const db = c.get('db')
  const topic = await lockVisibleTopic(db, actor, id)
  enforce(checkReviewTopic(actor, topic))
  const decision = await readBody(c, reviewDecisionSchema)
  const reason = decision.status === 'rejected' ? decision.rejectionReason : null
  await db`
    UPDATE topics SET status = ${decision.status}, rejection_reason = ${reason}, updated_at = now()
    WHERE id = ${id}`
  await notify(
    db,
    [topic.mentorId],
    decision.status === 'approved'
      ? messages.topicApproved(topic)
      : messages.topicRejected(topic, reason),
  )
  return c.json(found(await getVisibleTopic(db, actor, id), NOT_FOUND))
})
