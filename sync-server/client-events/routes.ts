import { Hono } from 'hono'
import { CLIENT_EVENT_RATE_LIMIT, clientEventSchema } from '../../shared/client-events.ts'
import { requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { rateLimit } from '../http/rate-limit.ts'
import { readBody } from '../http/validate.ts'

/**
 * POST /api/client-events: the PWA's watchdog reports a browser that got
 * stuck (IndexedDB or the sync lock) and whether it recovered. Written to the
 * server log as one line, without personal data, so that how often WebKit
 * wedges in the field can be counted; nothing is stored.
 */
export const clientEventRoutes = new Hono<AppEnv>()

clientEventRoutes.use(
  '/client-events',
  rateLimit({ name: 'client-events', limit: () => CLIENT_EVENT_RATE_LIMIT, windowSeconds: 60 }),
)

clientEventRoutes.post('/client-events', async (c) => {
  requireUser(c)
  const event = await readBody(c, clientEventSchema)
  // Info, not warn: a stall the client recovered from is expected on WebKit, not a server fault.
  console.info(
    `Client event: ${event.kind} ${event.operation} after ${event.waitedMs} ms on ${event.engine}, ${
      event.recovered ? 'recovered' : 'not recovered'
    }`,
  )
  return c.json({ logged: true as const }, 202)
})
