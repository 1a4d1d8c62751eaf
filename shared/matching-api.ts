import { z } from 'zod'
import {
  CANDIDATES_LIMIT_DEFAULT,
  RECOMMENDATIONS_LIMIT_DEFAULT,
  RECOMMENDATIONS_LIMIT_MAX,
} from './matching.ts'
import { topicSchema } from './topic.ts'
import { userSchema } from './user.ts'

/**
 * The matching API's request and answer shapes (issue 17), apart from the
 * scoring in matching.ts: the app scores on the device and never builds these,
 * and zod schemas are built when their module runs (in the topic list's first
 * render, when they lived in matching.ts).
 */

const limitQuery = (max: number, fallback: number) =>
  z.strictObject({
    limit: z.coerce
      .number({ error: `limit must be a number from 1 to ${max}` })
      .int(`limit must be a whole number from 1 to ${max}`)
      .min(1, `limit must be from 1 to ${max}`)
      .max(max, `limit must be from 1 to ${max}`)
      .default(fallback),
  })

/** GET /api/recommendations?limit=N. */
export const recommendationsQuerySchema = limitQuery(
  RECOMMENDATIONS_LIMIT_MAX,
  RECOMMENDATIONS_LIMIT_DEFAULT,
)

/** GET /api/topics/{id}/candidates?limit=N. */
export const candidatesQuerySchema = limitQuery(RECOMMENDATIONS_LIMIT_MAX, CANDIDATES_LIMIT_DEFAULT)

const scoreSchema = z.number().min(0).max(1)
const reasonsSchema = z.array(z.string())

/** GET /api/recommendations: best first. */
export const recommendationsResponseSchema = z.array(
  z.object({ topic: topicSchema, score: scoreSchema, reasons: reasonsSchema }),
)

/** GET /api/topics/{id}/candidates: best first, with the invitation already sent, if any. */
export const candidatesResponseSchema = z.array(
  z.object({
    user: userSchema,
    score: scoreSchema,
    reasons: reasonsSchema,
    invitation: z.enum(['open', 'declined']).nullable(),
  }),
)
