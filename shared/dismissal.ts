import { z } from 'zod'

/**
 * "Not interested" on a recommended topic (issue 17): remembered per person
 * and topic, synced to the person's devices only. Taking it back keeps the
 * row with `dismissed: false`, so every device hears of the change.
 */
export const dismissalSchema = z.object({
  topicId: z.uuid(),
  dismissed: z.boolean(),
  updatedAt: z.iso.datetime({ offset: true }),
})
export type Dismissal = z.infer<typeof dismissalSchema>

/** POST /api/topics/{id}/dismissal. */
export const dismissInputSchema = z.strictObject({
  dismissed: z.boolean({ error: 'dismissed must be true or false' }).default(true),
})
