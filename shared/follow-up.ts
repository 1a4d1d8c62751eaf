import { z } from 'zod'

/** A person as the follow-up lists show them. */
const personSchema = z.object({ id: z.uuid(), username: z.string(), full_name: z.string() })

/** An application pending past the "still open" threshold (menteeStillOpenDays). */
const waitingApplicationSchema = z.object({
  applicationId: z.uuid(),
  topicId: z.uuid(),
  subject: z.string(),
  mentee: personSchema,
  mentor: personSchema,
  appliedAt: z.iso.datetime({ offset: true }),
  /** Whole days since the mentee applied. */
  daysWaiting: z.number().int().nonnegative(),
  /** Whether the mentor was reminded (mentorAnswerDays). */
  mentorReminded: z.boolean(),
})
export type WaitingApplication = z.infer<typeof waitingApplicationSchema>

/** A started topic quiet past checkInEscalationDays, or whose people asked for help at a check-in. */
const checkInTopicSchema = z.object({
  topicId: z.uuid(),
  subject: z.string(),
  mentor: personSchema,
  mentees: z.array(personSchema),
  startedAt: z.iso.datetime({ offset: true }),
  lastActivityAt: z.iso.datetime({ offset: true }),
  /** Whole days since the last activity. */
  daysQuiet: z.number().int().nonnegative(),
  /** Someone answered a check-in with "We could use some help" since the last activity. */
  needsHelp: z.boolean(),
})
export type CheckInTopic = z.infer<typeof checkInTopicSchema>

/** GET /api/admin/follow-up: what administrators should look at, longest waiting first. */
export const followUpSchema = z.object({
  waitingForAnswer: z.array(waitingApplicationSchema),
  needsCheckIn: z.array(checkInTopicSchema),
})
export type FollowUp = z.infer<typeof followUpSchema>
