import { z } from 'zod'
import {
  DEFAULT_LOCATION,
  DESCRIPTION_MAX_LENGTH,
  LOCATIONS,
  MAX_MENTEES_MAX,
  MAX_MENTEES_MIN,
  SUBJECT_MAX_LENGTH,
  TEXT_MAX_LENGTH,
  TOPIC_STATUSES,
  type TopicStatus,
} from './constants.ts'
import { type Actor, allow, conflict, type Decision, forbid } from './decision.ts'
import { interestListSchema } from './interests.ts'
import { checkAdminister, senioritySchema, userSummarySchema } from './user.ts'

const topicStatusSchema = z.enum(TOPIC_STATUSES, {
  error: `Status must be one of ${TOPIC_STATUSES.join(', ')}`,
})
const locationSchema = z.enum(LOCATIONS, {
  error: 'Location must be one of online, in-person or both',
})

/** A topic as the API answers it (spec section 3). */
export const topicSchema = z.object({
  id: z.uuid(),
  subject: z.string(),
  description: z.string(),
  maxMentees: z.number().int(),
  currentMentees: z.number().int(),
  seniorityRequired: z.array(senioritySchema),
  location: locationSchema,
  interests: z.array(z.string()),
  status: topicStatusSchema,
  mentorId: z.uuid(),
  mentor: userSummarySchema,
  mentorFeedback: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
})
export type Topic = z.infer<typeof topicSchema>

/**
 * POST /api/topics and PATCH /api/topics/{id} (the same body). Messages are
 * the spec's where it gives them. `id` lets an offline client choose the id of
 * a topic it creates.
 */
export const topicInputSchema = z.strictObject({
  id: z.uuid('The topic id must be a UUID').optional(),
  subject: z
    .string({ error: 'Subject is required' })
    .trim()
    .min(1, 'Subject is required')
    .max(SUBJECT_MAX_LENGTH, `Subject can have at most ${SUBJECT_MAX_LENGTH} characters`),
  description: z
    .string()
    .max(
      DESCRIPTION_MAX_LENGTH,
      `Description can have at most ${DESCRIPTION_MAX_LENGTH} characters`,
    )
    .default(''),
  // A form may send the number as a string ("2"); nothing else is read as a number.
  maxMentees: z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: 'Maximum mentees must be a number' })
      .int('Maximum mentees must be a whole number')
      .min(MAX_MENTEES_MIN, `Maximum mentees must be ${MAX_MENTEES_MIN} or ${MAX_MENTEES_MAX}`)
      .max(MAX_MENTEES_MAX, `Maximum mentees must be ${MAX_MENTEES_MIN} or ${MAX_MENTEES_MAX}`),
  ),
  seniorityRequired: z
    .array(senioritySchema, { error: 'At least one seniority level is required' })
    .min(1, 'At least one seniority level is required')
    .transform((levels) => [...new Set(levels)]),
  location: locationSchema.default(DEFAULT_LOCATION),
  interests: interestListSchema.default([]),
})
export type TopicInput = z.input<typeof topicInputSchema>
export type TopicData = z.output<typeof topicInputSchema>

/** POST /api/admin/topics/{id}/review (spec section 3, "Review decision"). */
export const reviewDecisionSchema = z.strictObject({
  status: z.enum(['approved', 'rejected'], { error: 'Status must be approved or rejected' }),
  rejectionReason: z
    .string()
    .trim()
    .max(TEXT_MAX_LENGTH)
    .nullish()
    .transform((v) => (v ? v : null)),
})
export type ReviewDecision = z.infer<typeof reviewDecisionSchema>

/** POST /api/topics/{id}/conclude. */
export const concludeTopicSchema = z.strictObject({
  mentorFeedback: z
    .string({ error: 'Mentor feedback is required' })
    .trim()
    .min(1, 'Mentor feedback is required')
    .max(TEXT_MAX_LENGTH, `Mentor feedback can have at most ${TEXT_MAX_LENGTH} characters`),
})

/** The topic state machine (spec section 4). */
export const TOPIC_TRANSITIONS: Record<TopicStatus, readonly TopicStatus[]> = {
  proposed: ['approved', 'rejected'],
  approved: ['started'],
  rejected: ['proposed'], // editing a rejected topic resubmits it
  started: ['concluded'],
  concluded: [],
}

export function canTransitionTopic(from: TopicStatus, to: TopicStatus): boolean {
  return TOPIC_TRANSITIONS[from].includes(to)
}

type TopicRef = { mentorId: string; status: TopicStatus }

/**
 * The statuses everyone signed in may see (ARCHITECTURE.md); proposed and
 * rejected topics only their mentor and administrators. The server's SQL
 * takes this list as a parameter; the sync triggers' `sync_topic_is_public`
 * is checked against it by sync-server/sync/rules-in-sql.test.ts.
 */
export const PUBLIC_TOPIC_STATUSES = [
  'approved',
  'started',
  'concluded',
] as const satisfies readonly TopicStatus[]

export function isPublicTopicStatus(status: TopicStatus): boolean {
  return (PUBLIC_TOPIC_STATUSES as readonly TopicStatus[]).includes(status)
}

/** Approved, started and concluded topics are public; others only for their mentor and admins. */
export function canViewTopic(actor: Actor, topic: TopicRef): boolean {
  return isPublicTopicStatus(topic.status) || actor.isAdmin || actor.id === topic.mentorId
}

export function isTopicMentor(actor: Actor, topic: TopicRef): boolean {
  return actor.id === topic.mentorId
}

export function checkEditTopic(actor: Actor, topic: TopicRef): Decision {
  if (!isTopicMentor(actor, topic) && !actor.isAdmin) {
    return forbid('Only the mentor of this topic or an administrator can edit it.')
  }
  if (topic.status === 'started' || topic.status === 'concluded') {
    return conflict(`This topic is ${topic.status} and can no longer be edited.`)
  }
  return allow
}

/** A topic with as many accepted mentees as places takes no more (apply, accept, the "Full" badge). */
export function isTopicFull(topic: { currentMentees: number; maxMentees: number }): boolean {
  return topic.currentMentees >= topic.maxMentees
}

/** An edit may not set maxMentees below the mentees already accepted. */
export function checkMaxMentees(topic: { currentMentees: number }, maxMentees: number): Decision {
  if (maxMentees >= topic.currentMentees) return allow
  return conflict(
    `This topic already has ${topic.currentMentees} accepted mentees; the maximum cannot be lower.`,
  )
}

/** The status a topic has after an edit: a rejected topic is resubmitted for review. */
export function statusAfterEdit(status: TopicStatus): TopicStatus {
  return status === 'rejected' ? 'proposed' : status
}

export function checkReviewTopic(actor: Actor, topic: TopicRef): Decision {
  const admin = checkAdminister(actor, 'Only administrators can review topics.')
  if (!admin.ok) return admin
  if (topic.status !== 'proposed') {
    return conflict(`This topic is ${topic.status}; only proposed topics can be reviewed.`)
  }
  return allow
}

export function checkStartTopic(actor: Actor, topic: TopicRef): Decision {
  if (!isTopicMentor(actor, topic)) return forbid('Only the mentor of this topic can start it.')
  if (!canTransitionTopic(topic.status, 'started')) {
    return conflict(`This topic is ${topic.status}; only approved topics can be started.`)
  }
  return allow
}

export function checkConcludeTopic(actor: Actor, topic: TopicRef): Decision {
  if (!isTopicMentor(actor, topic) && !actor.isAdmin) {
    return forbid('Only the mentor of this topic or an administrator can conclude it.')
  }
  if (!canTransitionTopic(topic.status, 'concluded')) {
    return conflict(`This topic is ${topic.status}; only started topics can be concluded.`)
  }
  return allow
}

/** GET /api/topics query: the list filters (spec section 2), which really filter. */
const topicListQuerySchema = z.object({
  location: locationSchema.optional(),
  seniority: senioritySchema.optional(),
  status: topicStatusSchema.optional(),
})
export type TopicListQuery = z.infer<typeof topicListQuerySchema>

/** The most topics one page of GET /api/topics answers. */
const TOPIC_PAGE_LIMIT_MAX = 500
/** The longest search text GET /api/topics takes. */
const TOPIC_SEARCH_MAX_LENGTH = 200

/**
 * GET /api/topics query on the server: the list filters, full-text search
 * (`q`) and keyset paging (`limit`, `cursor`). Control characters in `q` are
 * read as spaces; a `q` without a letter or digit is no search.
 */
export const topicSearchQuerySchema = topicListQuerySchema.extend({
  q: z
    .string()
    .max(
      TOPIC_SEARCH_MAX_LENGTH,
      `The search can have at most ${TOPIC_SEARCH_MAX_LENGTH} characters`,
    )
    .meta({
      description:
        'Words to search for in the subject, description, interests and mentor name (web search syntax: "a phrase", or, -word); best matches first, then newest.',
    })
    .transform((q) => {
      const text = q.replace(/\p{Cc}/gu, ' ').trim()
      return /[\p{L}\p{N}]/u.test(text) ? text : undefined
    })
    .optional(),
  limit: z.coerce
    .number({ error: `limit must be a number from 1 to ${TOPIC_PAGE_LIMIT_MAX}` })
    .int(`limit must be a whole number from 1 to ${TOPIC_PAGE_LIMIT_MAX}`)
    .min(1, `limit must be from 1 to ${TOPIC_PAGE_LIMIT_MAX}`)
    .max(TOPIC_PAGE_LIMIT_MAX, `limit must be from 1 to ${TOPIC_PAGE_LIMIT_MAX}`)
    .meta({
      description:
        'At most this many topics; when there are more, a `Link: <…>; rel="next"` header gives the next page. Left out, every topic at once.',
    })
    .optional(),
  cursor: z
    .string()
    .max(1024)
    .meta({
      pattern: '^[A-Za-z0-9_-]+$',
      description:
        'Where the next page starts: taken as it is from the `rel="next"` link of the previous page, with the same filters and `q`.',
    })
    .optional(),
})
export type TopicSearchQuery = z.infer<typeof topicSearchQuerySchema>

/**
 * Whether a topic passes the list filters. "Online" includes topics offered
 * both ways, as does "In Person"; "Both" means topics offered both ways.
 */
export function matchesTopicFilters(
  topic: Pick<Topic, 'location' | 'seniorityRequired' | 'status'>,
  query: TopicListQuery,
): boolean {
  if (query.location) {
    const ok =
      query.location === 'both'
        ? topic.location === 'both'
        : [query.location, 'both'].includes(topic.location)
    if (!ok) return false
  }
  if (query.seniority && !topic.seniorityRequired.includes(query.seniority)) return false
  if (query.status && topic.status !== query.status) return false
  return true
}
