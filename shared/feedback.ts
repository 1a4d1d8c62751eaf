import { z } from 'zod'
import {
  RATING_DEFAULT,
  RATING_MAX,
  RATING_MIN,
  TEXT_MAX_LENGTH,
  type TopicStatus,
} from './constants.ts'
import { type Actor, allow, conflict, type Decision, forbid } from './decision.ts'

/** Feedback on a topic as the API answers it (spec section 3). */
export const feedbackSchema = z.object({
  id: z.uuid(),
  topicId: z.uuid(),
  feedback: z.string(),
  rating: z.number().int().min(RATING_MIN).max(RATING_MAX),
  isMentor: z.boolean(),
  user: z.object({ id: z.uuid(), username: z.string(), full_name: z.string() }),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
})
export type Feedback = z.infer<typeof feedbackSchema>

/** POST /api/topics/{id}/feedback: creates the user's feedback or edits it. */
export const feedbackInputSchema = z.strictObject({
  feedback: z
    .string({ error: 'Feedback is required' })
    .trim()
    .min(1, 'Feedback is required')
    .max(TEXT_MAX_LENGTH, `Feedback can have at most ${TEXT_MAX_LENGTH} characters`),
  rating: z
    .number({ error: `Rating must be a number from ${RATING_MIN} to ${RATING_MAX}` })
    .int(`Rating must be a whole number from ${RATING_MIN} to ${RATING_MAX}`)
    .min(RATING_MIN, `Rating must be from ${RATING_MIN} to ${RATING_MAX}`)
    .max(RATING_MAX, `Rating must be from ${RATING_MIN} to ${RATING_MAX}`)
    .default(RATING_DEFAULT),
})
export type FeedbackInput = z.input<typeof feedbackInputSchema>

/**
 * Feedback comes from participants of a concluded topic: its mentor and its
 * accepted mentees (ARCHITECTURE.md), one each, editable.
 */
export function checkGiveFeedback(
  actor: Actor,
  topic: { mentorId: string; status: TopicStatus },
  isAcceptedMentee: boolean,
): Decision {
  if (actor.id !== topic.mentorId && !isAcceptedMentee) {
    return forbid('Only the mentor and the accepted mentees of this topic can give feedback.')
  }
  if (topic.status !== 'concluded') {
    return conflict('Feedback can be given only once the topic is concluded.')
  }
  return allow
}
