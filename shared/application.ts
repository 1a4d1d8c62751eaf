import { z } from 'zod'
import {
  APPLICATION_STATUSES,
  type ApplicationStatus,
  TEXT_MAX_LENGTH,
  TOPIC_STARTED_REJECTION_REASON,
  type TopicStatus,
} from './constants.ts'
import { type Actor, allow, conflict, type Decision, forbid } from './decision.ts'
import { isTopicFull } from './topic.ts'
import { senioritySchema } from './user.ts'

const applicationStatusSchema = z.enum(APPLICATION_STATUSES)

/** An application as the API answers it (spec section 3). */
export const applicationSchema = z.object({
  id: z.uuid(),
  topicId: z.uuid(),
  status: applicationStatusSchema,
  rejectionReason: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  mentee: z.object({
    id: z.uuid(),
    username: z.string(),
    full_name: z.string(),
    seniority: senioritySchema.nullable(),
  }),
  topic: z.object({
    id: z.uuid(),
    subject: z.string(),
    status: z.string(),
    mentor: z.object({ id: z.uuid(), username: z.string(), full_name: z.string() }),
  }),
})
export type Application = z.infer<typeof applicationSchema>

/** GET /api/topics/{id}/my-application: the user's own application, or null. */
export const myApplicationSchema = applicationSchema.nullable()

/**
 * PATCH /api/applications/{id}. A rejection needs a reason (spec section 4);
 * an acceptance carries none.
 */
export const decideApplicationSchema = z
  .strictObject({
    status: z.enum(['accepted', 'rejected'], { error: 'Status must be accepted or rejected' }),
    rejectionReason: z
      .string()
      .trim()
      .max(TEXT_MAX_LENGTH, `A rejection reason can have at most ${TEXT_MAX_LENGTH} characters`)
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((value, ctx) => {
    if (value.status === 'rejected' && !value.rejectionReason) {
      ctx.addIssue({
        code: 'custom',
        path: ['rejectionReason'],
        message: 'A rejection reason is required',
      })
    }
  })
  // The rule above, as the API document shows it.
  .meta({
    if: { properties: { status: { const: 'rejected' } }, required: ['status'] },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    then: {
      properties: { rejectionReason: { type: 'string', pattern: '\\S' } },
      required: ['rejectionReason'],
    },
  })
  .transform((value) => (value.status === 'accepted' ? { ...value, rejectionReason: null } : value))
export type ApplicationDecision = z.infer<typeof decideApplicationSchema>

/** The application state machine (spec section 4). */
export const APPLICATION_TRANSITIONS: Record<ApplicationStatus, readonly ApplicationStatus[]> = {
  pending: ['accepted', 'rejected'],
  accepted: [],
  rejected: [],
}

export function canTransitionApplication(from: ApplicationStatus, to: ApplicationStatus): boolean {
  return APPLICATION_TRANSITIONS[from].includes(to)
}

/** How the mentee sees a status: accepted reads "Active". */
export const APPLICATION_STATUS_LABELS: Record<ApplicationStatus, string> = {
  pending: 'Pending',
  accepted: 'Active',
  rejected: 'Rejected',
}

type ApplyTopicRef = {
  mentorId: string
  status: TopicStatus
  currentMentees: number
  maxMentees: number
}

/**
 * The programme's optional limit on pending applications (issue 18): how many
 * the mentee has waiting now, and the limit (null: none).
 */
export type PendingLimit = { pending: number; limit: number | null }

export function pendingLimitMessage(limit: number): string {
  return limit === 1
    ? 'You already have an application waiting for an answer, the most this programme allows at once. You can apply again once its mentor answers.'
    : `You already have ${limit} applications waiting for an answer, the most this programme allows at once. You can apply again once a mentor answers one of them.`
}

/**
 * The apply conditions of spec section 5 (signed in is the caller's job),
 * and the programme's limit on pending applications when one is set.
 * The PWA shows the Apply button exactly when this allows.
 */
export function checkApply(
  actor: Actor,
  topic: ApplyTopicRef,
  hasApplication: boolean,
  pendingLimit?: PendingLimit,
): Decision {
  if (actor.id === topic.mentorId) return forbid('You cannot apply to your own topic.')
  if (topic.status !== 'approved') {
    return conflict(`This topic is ${topic.status} and is not open for applications.`)
  }
  if (hasApplication) return conflict('You have already applied to this topic.')
  if (isTopicFull(topic)) {
    return conflict('This topic is full: it already has the maximum number of mentees.')
  }
  if (pendingLimit && pendingLimit.limit !== null && pendingLimit.pending >= pendingLimit.limit) {
    return conflict(pendingLimitMessage(pendingLimit.limit))
  }
  return allow
}

export function canApply(
  actor: Actor,
  topic: ApplyTopicRef,
  hasApplication: boolean,
  pendingLimit?: PendingLimit,
): boolean {
  return checkApply(actor, topic, hasApplication, pendingLimit).ok
}

type DecideTopicRef = ApplyTopicRef

/** Accepting or rejecting: the topic's mentor only, on a pending application of an approved topic. */
export function checkDecideApplication(
  actor: Actor,
  topic: DecideTopicRef,
  application: { status: ApplicationStatus },
  to: 'accepted' | 'rejected',
): Decision {
  const decider = checkDecider(actor, topic)
  if (!decider.ok) return decider
  if (!canTransitionApplication(application.status, to)) {
    return conflict(`This application is already ${application.status}.`)
  }
  if (topic.status !== 'approved') {
    return conflict(
      `This topic is ${topic.status}; applications can only be decided while it is approved.`,
    )
  }
  if (to === 'accepted' && isTopicFull(topic)) {
    return conflict('This topic is full: it already has the maximum number of mentees.')
  }
  return allow
}

/** Only the topic's mentor decides its applications (spec section 6; not administrators). */
export function checkDecider(actor: Actor, topic: { mentorId: string }): Decision {
  if (actor.id === topic.mentorId) return allow
  return forbid('Only the mentor of this topic can accept or reject its applications.')
}

/** Who may read a topic's applications: its mentor and administrators. */
export function checkListApplications(actor: Actor, topic: { mentorId: string }): Decision {
  if (actor.id === topic.mentorId || actor.isAdmin) return allow
  return forbid('Only the mentor of this topic or an administrator can see its applications.')
}

/** Who may see an application: its mentee, the topic's mentor, and administrators. */
export function canViewApplication(
  actor: Actor,
  application: { menteeId: string; mentorId: string },
): boolean {
  return actor.isAdmin || actor.id === application.menteeId || actor.id === application.mentorId
}

/** The application status that starting a topic closes. */
export const STATUS_CLOSED_BY_START: ApplicationStatus = 'pending'

/**
 * Starting a topic closes its still-pending applications as rejected with
 * this reason, and their mentees are told (ARCHITECTURE.md). The server's
 * UPDATE and the PWA's optimistic change both take it from here.
 */
export const CLOSED_BY_START = {
  status: 'rejected',
  rejectionReason: TOPIC_STARTED_REJECTION_REASON,
} as const satisfies { status: ApplicationStatus; rejectionReason: string }

/** What starting its topic does to one application: closes it, or leaves it (null). */
export function closedByTopicStart(application: {
  status: ApplicationStatus
}): typeof CLOSED_BY_START | null {
  return application.status === STATUS_CLOSED_BY_START ? CLOSED_BY_START : null
}
