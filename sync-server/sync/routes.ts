import { Hono } from 'hono'
import {
  PUSH_BODY_LIMIT_BYTES,
  PUSH_OTHER_USER_PROBLEM,
  pullQuerySchema,
  pushEnvelopeSchema,
} from '../../shared/sync.ts'
import { limitBody } from '../http/body-limit.ts'
import { actorOf, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError, problemBody, validationError } from '../http/errors.ts'
import { readBody } from '../http/validate.ts'
import { type EventStreamOptions, eventStream } from './events.ts'
import { DEFAULT_HUB_OPTIONS, type HubOptions } from './hub.ts'
import { pullPage } from './pull.ts'
import { type Dispatch, replayMutations } from './push.ts'

export type SyncOptions = Partial<HubOptions> & {
  /** How often an event stream sends a heartbeat comment, so proxies keep it open. */
  heartbeatMs?: number
}

/**
 * A push carrying another user's queue: 401 (sign in again, as that user),
 * told apart from a missing session by its type.
 */
function otherUserProblem() {
  return {
    ...problemBody(
      401,
      'These changes belong to another user than the one signed in. Sign in again as that user to send them.',
    ),
    type: PUSH_OTHER_USER_PROBLEM,
    title: 'Signed in as another user',
  }
}

/** The path of the push route: it runs no transaction of its own (http/transaction.ts). */
export const SYNC_PUSH_PATH = '/api/sync/push'

/**
 * /api/sync: pull, push and the event stream of the sync protocol
 * (ARCHITECTURE.md, decision 0007). `dispatch` replays pushed mutations
 * through the whole app.
 */
export function createSyncRoutes(dispatch: Dispatch, options: SyncOptions = {}): Hono<AppEnv> {
  const streamOptions: EventStreamOptions = {
    ...DEFAULT_HUB_OPTIONS,
    heartbeatMs: 25_000,
    ...options,
  }
  const routes = new Hono<AppEnv>()

  routes.get('/pull', async (c) => {
    const user = requireUser(c)
    const query = pullQuerySchema.safeParse(c.req.query())
    if (!query.success) throw validationError(query.error)
    return c.json(await pullPage(c.get('deps').sql, actorOf(user), query.data))
  })

  // A push carries a batch of bodies: its own, larger body limit (app.ts exempts it from the usual).
  routes.use('/push', async (c, next) => {
    requireUser(c)
    const limit = Math.max(PUSH_BODY_LIMIT_BYTES, c.get('deps').config.BODY_LIMIT_BYTES)
    return limitBody(limit)(c, next)
  })

  routes.post('/push', async (c) => {
    const user = requireUser(c)
    const batch = await readBody(c, pushEnvelopeSchema)
    if (batch.userId !== undefined && batch.userId.toLowerCase() !== user.id.toLowerCase()) {
      // Another person's session (shared cookie, another tab signed in): apply nothing.
      return c.body(JSON.stringify(otherUserProblem()), 401, {
        'content-type': 'application/problem+json',
      })
    }
    const { results, unauthorized } = await replayMutations(
      dispatch,
      new URL(c.req.url).origin,
      c.req.header('cookie'),
      batch.mutations,
    )
    if (unauthorized) throw new ApiError(401, 'You are not signed in. Sign in to continue.')
    return c.json({ results })
  })

  routes.get('/events', (c) => eventStream(c, requireUser(c), streamOptions))

  return routes
}
