import { Hono } from 'hono'
import { z } from 'zod'
import {
  PULL_LIMIT_MAX,
  PUSH_BODY_LIMIT_BYTES,
  PUSH_MAX_MUTATIONS,
  PUSH_OTHER_USER_PROBLEM,
  pullQuerySchema,
  pullResponseSchema,
  pushEnvelopeSchema,
  pushRequestSchema,
  pushResponseSchema,
} from '../../shared/sync.ts'
import { actorOf, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError } from '../http/errors.ts'
import { body, query } from '../http/input.ts'
import { route } from '../http/route.ts'
import { type EventStreamOptions, eventStream } from './events.ts'
import { DEFAULT_HUB_OPTIONS, type HubOptions } from './hub.ts'
import { pullPage } from './pull.ts'
import { type Dispatch, MUTATIONS_PER_TRANSACTION, replayMutations } from './push.ts'
import type { IsReplayable } from './replayable.ts'

export type SyncOptions = Partial<HubOptions> & {
  /** How often an event stream sends a heartbeat comment, so proxies keep it open. */
  heartbeatMs?: number
}

/** What push replays through: the whole app, and which of its routes it may replay. */
export type Replay = { dispatch: Dispatch; replayable: IsReplayable }

/**
 * /api/sync: the sync engine's HTTP face (ARCHITECTURE.md, decision 0007):
 * pull, push and the event stream. The engine knows no domain rule: push
 * replays each mutation through the feature's own REST route, which is the
 * server's mutator.
 */
export function createSyncRoutes(replay: Replay, options: SyncOptions = {}): Hono<AppEnv> {
  const streamOptions: EventStreamOptions = {
    ...DEFAULT_HUB_OPTIONS,
    heartbeatMs: 25_000,
    ...options,
  }
  const routes = new Hono<AppEnv>()

  routes.get(
    '/pull',
    route({
      tag: 'Sync',
      errors: [401],
      summary: 'Pull changes',
      description: `The rows the caller may see that changed since \`cursor\` (omit it to start from the beginning), in the shapes the REST reads answer, each with its \`version\`; the ids that left the caller's view (\`removed\`; apply them first); the preferences when they changed; and the next cursor. Paged (\`limit\`, at most ${PULL_LIMIT_MAX}): pull again with the cursor while \`hasMore\`. \`reset: true\` (administrator rights changed, or a very old cursor) means: drop the synced rows, this page starts again. A row whose transaction commits late is never skipped; a cursor of another user or another database answers 400.`,
      response: { status: 200, schema: pullResponseSchema, description: 'One page of changes' },
    }),
    query(pullQuerySchema),
    async (c) => {
      const user = requireUser(c)
      return c.json(await pullPage(c.get('deps').sql, actorOf(user), c.var.query()))
    },
  )

  routes.post(
    '/push',
    route({
      tag: 'Sync',
      errors: [401, 413],
      idempotencyKey: false,
      replayable: false,
      // One transaction for the batch, opened by replayMutations; each mutation a savepoint.
      ownTransaction: true,
      // A batch of bodies: its own, larger limit.
      bodyLimitBytes: PUSH_BODY_LIMIT_BYTES,
      summary: 'Push queued mutations',
      description: `Replays up to ${PUSH_MAX_MUTATIONS} mutations in order, each through its documented REST mutation (a POST or PATCH above, path without query string) with the caller's session and \`Idempotency-Key\` = the mutation's id. The batch is one transaction, each mutation a savepoint in it: a 4xx rolls back only its own mutation and the ones before a 5xx result are applied. Mutations share a transaction ${MUTATIONS_PER_TRANSACTION} at a time; a push answered with a 5xx may have applied some: push them again (their stored results answer). One result per mutation, in order, with the status and body the route answered: 2xx applied (\`replayed\` when an earlier push had applied it), 4xx final; after a 5xx result the batch stops, push the rest again later. A malformed mutation, or anything but a documented mutation, gets a 400 or 404 result and the batch goes on. Not signed in: 401 for the whole push, nothing applied. \`userId\` (optional) names the user whose queue this is: when the session is another user's, nothing is applied and the push answers 401 with problem type \`${PUSH_OTHER_USER_PROBLEM}\` (sign in again as that user; keep the queue). Bodies up to ${PUSH_BODY_LIMIT_BYTES / (1024 * 1024)} MB: cut larger queues into several pushes.`,
      response: { status: 200, schema: pushResponseSchema, description: 'One result per mutation' },
    }),
    // Mutations are judged one by one (a malformed one gets its own 400 result).
    body(pushEnvelopeSchema, pushRequestSchema),
    async (c) => {
      const user = requireUser(c)
      const batch = await c.var.body()
      if (batch.userId !== undefined && batch.userId.toLowerCase() !== user.id.toLowerCase()) {
        // Another person's session (shared cookie, another tab signed in): apply nothing.
        throw new ApiError(
          401,
          'These changes belong to another user than the one signed in. Sign in again as that user to send them.',
          undefined,
          { type: PUSH_OTHER_USER_PROBLEM, title: 'Signed in as another user' },
        )
      }
      const results = await replayMutations(
        c.get('deps').sql,
        replay.dispatch,
        replay.replayable,
        new URL(c.req.url).origin,
        user,
        batch.mutations,
      )
      return c.json({ results })
    },
  )

  routes.get(
    '/events',
    route({
      tag: 'Sync',
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
    }),
    (c) => eventStream(c, requireUser(c), streamOptions),
  )

  return routes
}
