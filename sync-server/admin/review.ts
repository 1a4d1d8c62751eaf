import { Hono } from 'hono'
import { checkReviewTopic, reviewDecisionSchema, topicSchema } from '../../shared/topic.ts'
import { actorOf, requireAdmin } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { enforce, found, parseId } from '../http/validate.ts'
import { messages } from '../notifications/messages.ts'
import { notify } from '../notifications/notify.ts'
import { getVisibleTopic, lockVisibleTopic } from '../topics/queries.ts'

const NOT_FOUND = 'Topic not found'

/** /api/admin/topics/{id}/review: an administrator approves or rejects a proposed topic. */
export const adminReviewRoutes = new Hono<AppEnv>()

adminReviewRoutes.post(
  '/:id/review',
  route({
    tag: 'Administration',
    errors: [401, 403, 404, 409],
    summary: 'Review a proposed topic',
    description:
      'An administrator approves or rejects (optional reason) a proposed topic; the mentor is notified.',
    response: { status: 200, schema: topicSchema, description: 'The reviewed topic' },
  }),
  body(reviewDecisionSchema),
  async (c) => {
    // Reviewing is for administrators, whatever the topic: refuse others before looking it up.
    const user = requireAdmin(c, 'Only administrators can review topics.')
    const actor = actorOf(user)
    const id = parseId(c.req.param('id'), NOT_FOUND)
    const db = c.get('db')
    const topic = await lockVisibleTopic(db, actor, id)
    enforce(checkReviewTopic(actor, topic))
    const decision = await c.var.body()
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
  },
)
