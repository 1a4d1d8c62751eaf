import { z } from 'zod'
import {
  applicationSchema,
  decideApplicationSchema,
  myApplicationSchema,
} from '../../shared/application.ts'
import { clientEventAcceptedSchema, clientEventSchema } from '../../shared/client-events.ts'
import { feedbackInputSchema, feedbackSchema } from '../../shared/feedback.ts'
import { interestsResponseSchema } from '../../shared/interests.ts'
import { notificationSchema } from '../../shared/notification.ts'
import { preferencesSchema } from '../../shared/preferences.ts'
import {
  pushSubscriptionInfoSchema,
  pushSubscriptionSchema,
  pushUnsubscribedSchema,
  pushUnsubscribeSchema,
  vapidPublicKeySchema,
} from '../../shared/push.ts'
import { endedSessionsSchema, sessionInfoSchema } from '../../shared/session.ts'
import {
  PULL_LIMIT_MAX,
  PUSH_BODY_LIMIT_BYTES,
  PUSH_MAX_MUTATIONS,
  PUSH_OTHER_USER_PROBLEM,
  pullQuerySchema,
  pullResponseSchema,
  pushRequestSchema,
  pushResponseSchema,
} from '../../shared/sync.ts'
import {
  concludeTopicSchema,
  reviewDecisionSchema,
  topicInputSchema,
  topicListQuerySchema,
  topicSchema,
} from '../../shared/topic.ts'
import { devLoginSchema, updateProfileSchema, userSchema } from '../../shared/user.ts'

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/** One documented endpoint: the source of /api/openapi.json and /api/docs. */
export type Endpoint = {
  method: Method
  /** OpenAPI path under /api, with {params}. */
  path: string
  tag: string
  summary: string
  description: string
  /** Signed-in users only (everything but dev-login and logout). */
  auth: boolean
  query?: z.ZodObject
  body?: z.ZodType
  response?: { status: number; schema: z.ZodType; description: string; mediaType?: string }
  /** Error statuses it can answer besides 400 validation errors. */
  errors: number[]
  /** A mutation that takes no Idempotency-Key of its own (sync push: each mutation has one). */
  idempotencyKey?: false
  /** False for a mutation that must happen online, never queued and replayed by sync push. */
  replayable?: false
}

const topicList = z.array(topicSchema)

/** Every endpoint of spec section 7, at its exact method and path. */
const REST_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/user',
    tag: 'Users',
    auth: true,
    errors: [401],
    summary: 'The signed-in user',
    description: 'Answers the current user. 401 means nobody is signed in.',
    response: { status: 200, schema: userSchema, description: 'The current user' },
  },
  {
    method: 'GET',
    path: '/auth/microsoft',
    tag: 'Sign-in',
    auth: false,
    errors: [429],
    query: z.object({
      returnTo: z.string().optional().describe('A path of this site to open after signing in'),
    }),
    summary: 'Sign in with Microsoft',
    description:
      'A browser navigates here. Without `code` it sends the browser to Microsoft Entra ID (302), remembering an optional `returnTo` path of this site; Microsoft sends it back here with `code` and `state`, and the server creates or refreshes the user, sets the session cookie and redirects to `returnTo` or `/`. A failed sign-in redirects to `/?sign_in_error=<reason>` (cancelled, not_allowed, state, token, profile, unavailable, failed) with no session. Without Entra credentials (development only) it redirects to the development sign-in page. Rate limited per client address (AUTH_RATE_LIMIT per minute).',
  },
  {
    method: 'GET',
    path: '/auth/dev-login',
    tag: 'Sign-in',
    auth: false,
    errors: [404, 429],
    summary: 'Development sign-in page',
    description:
      'An HTML page listing the users to sign in as, with a field for a new username; its forms POST to /auth/dev-login. Not available when NODE_ENV=production (404).',
  },
  {
    method: 'POST',
    path: '/auth/dev-login',
    tag: 'Sign-in',
    auth: false,
    errors: [404, 429],
    summary: 'Development sign-in',
    description:
      "Signs in as the user named by id or username and sets the session cookie. In development an unknown username creates a new non-admin user. A JSON body answers the user; the sign-in page's url-encoded form is redirected (303) to its `returnTo` or `/`. Not available when NODE_ENV=production (404).",
    body: devLoginSchema,
    response: { status: 200, schema: userSchema, description: 'The signed-in user' },
  },
  {
    method: 'GET',
    path: '/auth/logout',
    tag: 'Sign-in',
    auth: false,
    errors: [],
    summary: 'Sign out',
    description:
      'Ends the session, clears the cookie and redirects to / (302). A browser navigates here.',
  },
  {
    method: 'GET',
    path: '/topics',
    tag: 'Topics',
    auth: true,
    errors: [401],
    summary: 'List topics',
    description:
      'Approved, started and concluded topics for everyone; proposed and rejected topics only for their mentor and administrators. Optional filters: location (online and in-person include topics offered both ways), seniority, status.',
    query: topicListQuerySchema,
    response: { status: 200, schema: topicList, description: 'Topics, newest first' },
  },
  {
    method: 'POST',
    path: '/topics',
    tag: 'Topics',
    auth: true,
    errors: [401, 409],
    summary: 'Propose a topic',
    description:
      'Creates a topic with status proposed and notifies the administrators. The description is sanitised to the editor subset of HTML. An optional client-chosen id (UUID) lets an offline client refer to the topic before it syncs.',
    body: topicInputSchema,
    response: { status: 201, schema: topicSchema, description: 'The created topic' },
  },
  {
    method: 'GET',
    path: '/topics/{id}',
    tag: 'Topics',
    auth: true,
    errors: [401, 404],
    summary: 'Read a topic',
    description: 'A topic with its mentor. A topic the caller may not see answers 404.',
    response: { status: 200, schema: topicSchema, description: 'The topic' },
  },
  {
    method: 'PATCH',
    path: '/topics/{id}',
    tag: 'Topics',
    auth: true,
    errors: [401, 403, 404, 409],
    summary: 'Edit a topic',
    description:
      'The mentor or an administrator edits a topic that has not started. Editing a rejected topic resubmits it for review (proposed, reason cleared). The maximum cannot go below the accepted mentees.',
    body: topicInputSchema,
    response: { status: 200, schema: topicSchema, description: 'The edited topic' },
  },
  {
    method: 'GET',
    path: '/topics/mentor/{userId}',
    tag: 'Topics',
    auth: true,
    errors: [401, 404],
    summary: "A mentor's topics",
    description: 'The topics of one mentor that the caller may see.',
    response: { status: 200, schema: topicList, description: 'Topics, newest first' },
  },
  {
    method: 'GET',
    path: '/topics/{id}/applications',
    tag: 'Applications',
    auth: true,
    errors: [401, 403, 404],
    summary: "A topic's applications",
    description: 'For the mentor of the topic and administrators.',
    response: {
      status: 200,
      schema: z.array(applicationSchema),
      description: 'Applications, newest first',
    },
  },
  {
    method: 'GET',
    path: '/topics/{id}/my-application',
    tag: 'Applications',
    auth: true,
    errors: [401, 404],
    summary: "The caller's application to a topic",
    description: 'The application, or null when the caller has not applied.',
    response: { status: 200, schema: myApplicationSchema, description: 'The application or null' },
  },
  {
    method: 'POST',
    path: '/topics/{id}/apply',
    tag: 'Applications',
    auth: true,
    errors: [401, 403, 404, 409],
    summary: 'Apply to a topic',
    description:
      'Creates a pending application and notifies the mentor. Only for an approved topic that is not full, that is not the caller’s own and that the caller has not applied to yet. No body.',
    response: { status: 201, schema: applicationSchema, description: 'The created application' },
  },
  {
    method: 'POST',
    path: '/topics/{id}/start',
    tag: 'Topics',
    auth: true,
    errors: [401, 403, 404, 409],
    summary: 'Start a topic',
    description:
      'The mentor starts an approved topic. Still-pending applications are rejected with the reason "The topic has started"; accepted mentees are notified. No body.',
    response: { status: 200, schema: topicSchema, description: 'The started topic' },
  },
  {
    method: 'POST',
    path: '/topics/{id}/conclude',
    tag: 'Topics',
    auth: true,
    errors: [401, 403, 404, 409],
    summary: 'Conclude a topic',
    description: 'The mentor or an administrator concludes a started topic with mentor feedback.',
    body: concludeTopicSchema,
    response: { status: 200, schema: topicSchema, description: 'The concluded topic' },
  },
  {
    method: 'GET',
    path: '/topics/{id}/feedback',
    tag: 'Feedback',
    auth: true,
    errors: [401, 404],
    summary: "A topic's feedback",
    description: 'Feedback left on a concluded topic, the mentor’s first.',
    response: { status: 200, schema: z.array(feedbackSchema), description: 'Feedback' },
  },
  {
    method: 'POST',
    path: '/topics/{id}/feedback',
    tag: 'Feedback',
    auth: true,
    errors: [401, 403, 404, 409],
    summary: 'Add or edit feedback',
    description:
      'The mentor or an accepted mentee of a concluded topic leaves feedback; posting again edits it (one per person). 201 when created, 200 when edited.',
    body: feedbackInputSchema,
    response: { status: 201, schema: feedbackSchema, description: 'The saved feedback' },
  },
  {
    method: 'GET',
    path: '/my-applications',
    tag: 'Applications',
    auth: true,
    errors: [401],
    summary: "The caller's applications",
    description: 'Every application of the caller, with topic and mentor.',
    response: {
      status: 200,
      schema: z.array(applicationSchema),
      description: 'Applications, newest first',
    },
  },
  {
    method: 'PATCH',
    path: '/applications/{id}',
    tag: 'Applications',
    auth: true,
    errors: [401, 403, 404, 409],
    summary: 'Accept or reject an application',
    description:
      'The mentor of the topic decides a pending application. A rejection needs a reason, which the mentee sees. Accepting never exceeds the topic’s maximum, also under concurrent accepts (409).',
    body: decideApplicationSchema,
    response: { status: 200, schema: applicationSchema, description: 'The decided application' },
  },
  {
    method: 'GET',
    path: '/interests',
    tag: 'Users',
    auth: true,
    errors: [401],
    summary: 'Known interests',
    description:
      'The interests offered to pickers, alphabetically; free-text additions join the list when saved.',
    response: { status: 200, schema: interestsResponseSchema, description: 'Interest names' },
  },
  {
    method: 'GET',
    path: '/users',
    tag: 'Users',
    auth: true,
    errors: [401],
    summary: 'List users',
    description: 'Every user, by username.',
    response: { status: 200, schema: z.array(userSchema), description: 'Users' },
  },
  {
    method: 'GET',
    path: '/users/{username}',
    tag: 'Users',
    auth: true,
    errors: [401, 404],
    summary: 'Read a profile',
    description: 'A user by username (case-insensitive).',
    response: { status: 200, schema: userSchema, description: 'The user' },
  },
  {
    method: 'PATCH',
    path: '/users/{username}',
    tag: 'Users',
    auth: true,
    errors: [401, 403, 404],
    summary: 'Edit a profile',
    description:
      'The owner or an administrator edits seniority, bio and interests. Omitted fields stay; seniority null clears it.',
    body: updateProfileSchema,
    response: { status: 200, schema: userSchema, description: 'The updated user' },
  },
  {
    method: 'POST',
    path: '/admin/topics/{id}/review',
    tag: 'Administration',
    auth: true,
    errors: [401, 403, 404, 409],
    summary: 'Review a proposed topic',
    description:
      'An administrator approves or rejects (optional reason) a proposed topic; the mentor is notified.',
    body: reviewDecisionSchema,
    response: { status: 200, schema: topicSchema, description: 'The reviewed topic' },
  },
  {
    method: 'POST',
    path: '/admin/users/{id}/toggle-admin',
    tag: 'Administration',
    auth: true,
    errors: [401, 403, 404],
    summary: "Toggle a user's administrator flag",
    description:
      'An administrator grants or revokes another user’s administrator rights; it takes effect on that user’s next request. Administrators cannot change their own flag. No body.',
    response: { status: 200, schema: userSchema, description: 'The updated user' },
  },
  {
    method: 'GET',
    path: '/user/sessions',
    tag: 'Sign-in',
    auth: true,
    errors: [401],
    summary: 'Signed-in devices',
    description:
      'The devices (sessions) the caller is signed in on, most recently used first, with the one of this request marked `current`.',
    response: { status: 200, schema: z.array(sessionInfoSchema), description: 'The sessions' },
  },
  {
    method: 'POST',
    path: '/user/sessions/sign-out-others',
    tag: 'Sign-in',
    auth: true,
    replayable: false,
    errors: [401],
    summary: 'Sign out every other device',
    description: 'Ends every session of the caller but the one of this request. No body.',
    response: { status: 200, schema: endedSessionsSchema, description: 'How many ended' },
  },
  {
    method: 'POST',
    path: '/user/sessions/{id}/sign-out',
    tag: 'Sign-in',
    auth: true,
    replayable: false,
    errors: [401, 404],
    summary: 'Sign out one device',
    description:
      'Ends one of the caller’s sessions, named by the `id` GET /user/sessions answers (this one too). No body.',
    response: { status: 200, schema: endedSessionsSchema, description: 'How many ended (1)' },
  },
  {
    method: 'GET',
    path: '/user/notification-preferences',
    tag: 'Notifications',
    auth: true,
    errors: [401],
    summary: 'Notification preferences',
    description: 'Which events also reach the caller by e-mail (and push). All on by default.',
    response: { status: 200, schema: preferencesSchema, description: 'The preferences' },
  },
  {
    method: 'PATCH',
    path: '/user/notification-preferences',
    tag: 'Notifications',
    auth: true,
    errors: [401],
    summary: 'Save notification preferences',
    description: 'Takes the full preferences object.',
    body: preferencesSchema,
    response: { status: 200, schema: preferencesSchema, description: 'The saved preferences' },
  },
  {
    method: 'GET',
    path: '/notifications',
    tag: 'Notifications',
    auth: true,
    errors: [401],
    summary: 'Notifications',
    description: 'The caller’s 200 newest notifications, newest first.',
    response: { status: 200, schema: z.array(notificationSchema), description: 'Notifications' },
  },
  {
    method: 'PATCH',
    path: '/notifications/{id}',
    tag: 'Notifications',
    auth: true,
    errors: [401, 404],
    summary: 'Mark a notification read',
    description: 'Marks one of the caller’s notifications read. No body.',
    response: { status: 200, schema: notificationSchema, description: 'The notification' },
  },
]

/** The sync protocol (ARCHITECTURE.md, decision 0007): beyond spec section 7. */
export const SYNC_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/sync/pull',
    tag: 'Sync',
    auth: true,
    errors: [401],
    summary: 'Pull changes',
    description: `The rows the caller may see that changed since \`cursor\` (omit it to start from the beginning), in the shapes the REST reads answer, each with its \`version\`; the ids that left the caller's view (\`removed\`; apply them first); the preferences when they changed; and the next cursor. Paged (\`limit\`, at most ${PULL_LIMIT_MAX}): pull again with the cursor while \`hasMore\`. \`reset: true\` (administrator rights changed, or a very old cursor) means: drop the synced rows, this page starts again. A row whose transaction commits late is never skipped; a cursor of another user or another database answers 400.`,
    query: pullQuerySchema,
    response: { status: 200, schema: pullResponseSchema, description: 'One page of changes' },
  },
  {
    method: 'POST',
    path: '/sync/push',
    tag: 'Sync',
    auth: true,
    errors: [401, 413],
    idempotencyKey: false,
    summary: 'Push queued mutations',
    description: `Replays up to ${PUSH_MAX_MUTATIONS} mutations in order, each through its documented REST mutation (a POST or PATCH above, path without query string) with the caller's session and \`Idempotency-Key\` = the mutation's id, each in its own transaction. One result per mutation, in order, with the status and body the route answered: 2xx applied (\`replayed\` when an earlier push had applied it), 4xx final; after a 5xx result the batch stops, push the rest again later. A malformed mutation, or anything but a documented mutation, gets a 400 or 404 result and the batch goes on. Not signed in: 401 for the whole push, nothing applied. \`userId\` (optional) names the user whose queue this is: when the session is another user's, nothing is applied and the push answers 401 with problem type \`${PUSH_OTHER_USER_PROBLEM}\` (sign in again as that user; keep the queue). Bodies up to ${PUSH_BODY_LIMIT_BYTES / (1024 * 1024)} MB: cut larger queues into several pushes.`,
    body: pushRequestSchema,
    response: { status: 200, schema: pushResponseSchema, description: 'One result per mutation' },
  },
  {
    method: 'GET',
    path: '/sync/events',
    tag: 'Sync',
    auth: true,
    errors: [401],
    summary: 'Change pokes (server-sent events)',
    description:
      'A text/event-stream that stays open: `ready` once listening, then `poke` (coalesced) whenever something the caller may see changed, on any server instance: pull then. A comment line every 25 seconds keeps it open.',
    response: {
      status: 200,
      mediaType: 'text/event-stream',
      schema: z.string(),
      description: 'Events `ready` and `poke`',
    },
  },
]

/**
 * Push notifications (issue 7, decision 0009): beyond spec section 7. A
 * subscription is a fact about one device, registered online: never queued
 * for sync push.
 */
export const PUSH_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/push/vapid-public-key',
    tag: 'Notifications',
    auth: true,
    errors: [401],
    summary: 'Push: the server key',
    description:
      "The server's VAPID public key (base64url), the `applicationServerKey` for `pushManager.subscribe()`. It stays the same across restarts and instances.",
    response: { status: 200, schema: vapidPublicKeySchema, description: 'The public key' },
  },
  {
    method: 'POST',
    path: '/push/subscriptions',
    tag: 'Notifications',
    auth: true,
    replayable: false,
    errors: [401],
    summary: 'Push: register this device',
    description:
      'Takes `PushSubscription.toJSON()` and from now on sends this device a push for every notification whose preference is on. The endpoint must be https. Registering an endpoint again updates it and moves it to the caller and this session (201 for a new device, 200 for a known one); signing out of the session ends its pushes. A user may have several devices (the 20 most recently registered).',
    body: pushSubscriptionSchema,
    response: { status: 201, schema: pushSubscriptionInfoSchema, description: 'The device' },
  },
  {
    method: 'DELETE',
    path: '/push/subscriptions',
    tag: 'Notifications',
    auth: true,
    replayable: false,
    errors: [401],
    summary: 'Push: unregister a device',
    description:
      "Stops pushes to the caller's device with this endpoint. `removed` is 0 when the caller has no such device (another user's endpoint is left alone).",
    body: pushUnsubscribeSchema,
    response: { status: 200, schema: pushUnsubscribedSchema, description: 'How many went' },
  },
  {
    method: 'POST',
    path: '/client-events',
    tag: 'Sync',
    auth: true,
    replayable: false,
    errors: [401, 429],
    summary: 'Report a browser stall',
    description:
      "The PWA's watchdog reports an IndexedDB operation or the sync lock that did not settle in time, and whether reopening brought the screen back. Logged on one line without personal data; nothing is stored. At most 30 per minute from one address.",
    body: clientEventSchema,
    response: { status: 202, schema: clientEventAcceptedSchema, description: 'Logged' },
  },
]

/** Every documented endpoint: /api/openapi.json and /api/docs list these. */
export const ENDPOINTS: Endpoint[] = [...REST_ENDPOINTS, ...PUSH_ENDPOINTS, ...SYNC_ENDPOINTS]

/**
 * The mutation routes a sync push may replay: every documented REST POST and
 * PATCH but sign-in and signing devices out, which happen online only (never
 * sync push itself).
 */
export const MUTATION_ENDPOINTS = REST_ENDPOINTS.filter(
  (e) => e.method !== 'GET' && e.auth && e.replayable !== false,
)
