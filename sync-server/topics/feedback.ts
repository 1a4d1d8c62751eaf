import { Hono } from 'hono'
import { z } from 'zod'
import {
  checkGiveFeedback,
  type Feedback,
  feedbackInputSchema,
  feedbackSchema,
} from '../../shared/feedback.ts'
import type { Db } from '../db/connect.ts'
import { actorOf, callerOn } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { enforce, found } from '../http/validate.ts'
import { feedbackColumns, getVisibleTopic, lockVisibleTopic } from './queries.ts'

const NOT_FOUND = 'Topic not found'

/** /api/topics/{id}/feedback: read the feedback; participants add or edit their own. */
export const topicFeedbackRoutes = new Hono<AppEnv>()

function listFeedback(db: Db, topicId: string, userId?: string) {
  return db<Feedback[]>`
    SELECT ${feedbackColumns(db)}
    FROM feedback f JOIN users u ON u.id = f.user_id
    WHERE f.topic_id = ${topicId} ${userId ? db`AND f.user_id = ${userId}` : db``}
    ORDER BY f.is_mentor DESC, f.created_at, f.id`
}

topicFeedbackRoutes.get(
  '/:id/feedback',
  route({
    tag: 'Feedback',
    errors: [401, 404],
    summary: "A topic's feedback",
    description: 'Feedback left on a concluded topic, the mentor’s first.',
    response: { status: 200, schema: z.array(feedbackSchema), description: 'Feedback' },
  }),
  async (c) => {
    const { user, id, db } = callerOn(c, NOT_FOUND)
    found(await getVisibleTopic(db, actorOf(user), id), NOT_FOUND)
    return c.json(await listFeedback(db, id))
  },
)

topicFeedbackRoutes.post(
  '/:id/feedback',
  route({
    tag: 'Feedback',
    errors: [401, 403, 404, 409],
    summary: 'Add or edit feedback',
    description:
      'The mentor or an accepted mentee of a concluded topic leaves feedback; posting again edits it (one per person). 201 when created, 200 when edited.',
    response: {
      status: 201,
      schema: feedbackSchema,
      description: 'The feedback, created',
      also: { status: 200, description: 'The feedback, edited' },
    },
  }),
  body(feedbackInputSchema),
  async (c) => {
    const { user, actor, id, db } = callerOn(c, NOT_FOUND)
    const topic = await lockVisibleTopic(db, actor, id)
    const [accepted] = await db`
    SELECT 1 FROM applications WHERE topic_id = ${id} AND mentee_id = ${user.id} AND status = 'accepted'`
    enforce(checkGiveFeedback(actor, topic, accepted !== undefined))
    const input = await c.var.body()
    const [saved] = await db<{ inserted: boolean }[]>`
    INSERT INTO feedback (topic_id, user_id, feedback, rating, is_mentor)
    VALUES (${id}, ${user.id}, ${input.feedback}, ${input.rating}, ${topic.mentorId === user.id})
    ON CONFLICT (topic_id, user_id) DO UPDATE
      SET feedback = EXCLUDED.feedback, rating = EXCLUDED.rating, updated_at = now()
    RETURNING (xmax = 0) AS inserted`
    const [feedback] = await listFeedback(db, id, user.id)
    return c.json(found(feedback, 'Feedback not found'), saved?.inserted ? 201 : 200)
  },
)
