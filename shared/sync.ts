import { z } from 'zod'
import { applicationSchema } from './application.ts'
import { dismissalSchema } from './dismissal.ts'
import { feedbackSchema } from './feedback.ts'
import { invitationSchema } from './invitation.ts'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts'
import { notificationSchema } from './notification.ts'
import { preferencesSchema } from './preferences.ts'
import { programmeSettingsSchema } from './programme-settings.ts'
import { topicSchema } from './topic.ts'
import { userSchema } from './user.ts'

/**
 * The sync protocol of ARCHITECTURE.md (decision 0007): pull pages of changed
 * rows in the shapes the REST reads answer, push queued mutations through the
 * documented REST routes. Both the server and the PWA's sync client use these.
 */

/** Pull page size: the default and the largest a client may ask for. */
export const PULL_LIMIT_DEFAULT = 500
export const PULL_LIMIT_MAX = 1000

/**
 * How long the server keeps the answer to a mutation (its Idempotency-Key).
 * A queued mutation older than this may apply twice if an earlier push of it
 * was applied but its answer lost: the client must not push it blindly.
 */
export const IDEMPOTENCY_KEY_RETENTION_DAYS = 90

/** Push batch size: the most mutations one push may carry. */
export const PUSH_MAX_MUTATIONS = 100
/**
 * The largest push body. Not a full batch of the largest mutations: a topic
 * with a 50,000-character description (DESCRIPTION_MAX_LENGTH) is up to
 * 150 kB of JSON (3 bytes a character outside ASCII; 50 kB in ASCII), plus
 * about 7 kB of subject, interests and envelope, so 100 of them would be
 * up to 15.7 MB (5.1 MB in ASCII). The client cuts each push to this limit
 * by counting the bytes it sends (at least 26 such mutations a push), and
 * refuses, unsent, a single mutation that would not fit alone; a replayed
 * body is also held to the server's BODY_LIMIT_BYTES (256 kB by default).
 * 4 MB keeps what one request makes the server hold small.
 */
export const PUSH_BODY_LIMIT_BYTES = 4 * 1024 * 1024

/** Every row carries its version: of two copies of one row, the higher is newer. */
const version = z.number().int().nonnegative()

export const syncTopicSchema = topicSchema.extend({ version })
export const syncApplicationSchema = applicationSchema.extend({ version })
export const syncFeedbackSchema = feedbackSchema.extend({ version })
export const syncNotificationSchema = notificationSchema.extend({ version })
export const syncUserSchema = userSchema.extend({ version })
/** GET /api/interests answers names; sync sends each with its version. */
export const syncInterestSchema = z.object({ name: z.string(), version })
/** The caller's own "Not interested" marks, keyed by topic. */
export const syncDismissalSchema = dismissalSchema.extend({ version })
/** Invitations the caller sent (as a topic's mentor) or received. */
export const syncInvitationSchema = invitationSchema.extend({ version })

/** The tables a pull sends, in the order a pass sends them. */
export const SYNC_TABLES = [
  'topics',
  'applications',
  'feedback',
  'notifications',
  'users',
  'interests',
  'dismissals',
  'invitations',
] as const
export type SyncTable = (typeof SYNC_TABLES)[number]

/** The key of a row of each table: its id, an interest's name, a dismissal's topic. */
export const SYNC_KEY: Record<SyncTable, string> = {
  topics: 'id',
  applications: 'id',
  feedback: 'id',
  notifications: 'id',
  users: 'id',
  interests: 'name',
  dismissals: 'topicId',
  invitations: 'id',
}

export const pullQuerySchema = z.strictObject({
  cursor: z
    .string()
    .max(2048)
    .meta({
      pattern: '^[A-Za-z0-9_-]+$',
      description:
        'The `cursor` the previous pull answered, as it was given (issued to this user); left out, the pull starts from the beginning.',
    })
    .optional(),
  limit: z.coerce
    .number({ error: `limit must be a number from 1 to ${PULL_LIMIT_MAX}` })
    .int(`limit must be a whole number from 1 to ${PULL_LIMIT_MAX}`)
    .min(1, `limit must be from 1 to ${PULL_LIMIT_MAX}`)
    .max(PULL_LIMIT_MAX, `limit must be from 1 to ${PULL_LIMIT_MAX}`)
    .default(PULL_LIMIT_DEFAULT),
})

const ids = z.array(z.string())

/**
 * GET /api/sync/pull. Apply `removed` first, then upsert `changes` (a row the
 * client has with a higher version stays). `reset: true` means: drop every
 * synced row first, this page starts again from the beginning. Pull again with
 * `cursor` while `hasMore`; store `cursor` only together with the rows.
 */
export const pullResponseSchema = z.object({
  changes: z.object({
    topics: z.array(syncTopicSchema),
    applications: z.array(syncApplicationSchema),
    feedback: z.array(syncFeedbackSchema),
    notifications: z.array(syncNotificationSchema),
    users: z.array(syncUserSchema),
    interests: z.array(syncInterestSchema),
    dismissals: z.array(syncDismissalSchema),
    invitations: z.array(syncInvitationSchema),
    /** The caller's preferences when they changed (or on a first sync), else null. */
    preferences: preferencesSchema.nullable(),
    /** The programme settings when they changed (or on a first sync), else null. */
    settings: programmeSettingsSchema.nullable(),
  }),
  /** Ids (interest names) of rows that left the caller's view: deleted, or no longer visible. */
  removed: z.object({
    topics: ids,
    applications: ids,
    feedback: ids,
    notifications: ids,
    users: ids,
    interests: ids,
    dismissals: ids,
    invitations: ids,
  }),
  cursor: z.string(),
  hasMore: z.boolean(),
  reset: z.boolean(),
})
export type PullResponse = z.infer<typeof pullResponseSchema>

/** One queued write: a documented REST mutation, replayed with `Idempotency-Key: id`. */
export const pushMutationSchema = z.strictObject({
  id: z
    .string()
    .min(1, 'A mutation id is required')
    .max(255, 'A mutation id has at most 255 characters')
    // It is replayed as the Idempotency-Key header: only what a header value can carry.
    .regex(/^[\x21-\x7e]+$/, 'A mutation id consists of visible ASCII characters only'),
  method: z.string().min(1).max(10),
  path: z.string().min(1).max(2048),
  body: z
    .unknown()
    .optional()
    .refine((body) => !nestsDeeperThan(body), {
      error: `A mutation body nests at most ${MAX_JSON_DEPTH} levels deep`,
    }),
})
export type PushMutation = z.infer<typeof pushMutationSchema>

/**
 * The problem `type` of a push refused because the session is not the user
 * whose queue it carries (`userId`). Its status is 401, like a push without a
 * session: the client keeps its queue and asks the person to sign in again,
 * as that user.
 */
export const PUSH_OTHER_USER_PROBLEM = 'urn:pairwise:problem:sync-push-other-user'

/** POST /api/sync/push. Results come in the order of `mutations`. */
export const pushRequestSchema = z.strictObject({
  clientId: z.string().min(1, 'clientId is required').max(255),
  /**
   * The user whose queue this is. When it is not the session's user the
   * server applies nothing and answers 401 with type PUSH_OTHER_USER_PROBLEM:
   * the browser's session cookie is shared by every tab, and another person
   * may have signed in meanwhile. Optional so that clients from before it
   * keep working; the PWA always sends it.
   */
  userId: z.string().min(1, 'userId must not be empty').max(255).optional(),
  mutations: z
    .array(pushMutationSchema)
    .max(PUSH_MAX_MUTATIONS, `A push carries at most ${PUSH_MAX_MUTATIONS} mutations`),
})

/**
 * What the server checks of a push as a whole. Each mutation is checked on
 * its own: one malformed entry gets a 400 result instead of refusing the
 * batch, so it cannot wedge the queue behind it.
 */
export const pushEnvelopeSchema = pushRequestSchema.extend({
  mutations: z
    .array(z.unknown())
    .max(PUSH_MAX_MUTATIONS, `A push carries at most ${PUSH_MAX_MUTATIONS} mutations`),
})

/**
 * The answer to one mutation: the status and body the REST route answered.
 * 2xx applied (or replayed); 4xx is final, drop the mutation and show the
 * problem; a 5xx result is the last of the batch: push the rest again later.
 */
const pushResultSchema = z.object({
  id: z.string(),
  status: z.number().int(),
  body: z.unknown(),
  /** The answer was stored by an earlier attempt and nothing was applied now. */
  replayed: z.boolean(),
})
export type PushResult = z.infer<typeof pushResultSchema>

export const pushResponseSchema = z.object({ results: z.array(pushResultSchema) })
export type PushResponse = z.infer<typeof pushResponseSchema>

/** What a client does with one push result. */
export function pushOutcome(status: number): 'applied' | 'refused' | 'retry' {
  if (status >= 500 || status === 401 || status === 429) return 'retry'
  if (status >= 400) return 'refused'
  return 'applied'
}
