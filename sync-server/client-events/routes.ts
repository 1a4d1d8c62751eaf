import { Hono } from 'hono'
import { clientEventAcceptedSchema, clientEventSchema } from '../../shared/client-events.ts'
import { requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'

/**
 * POST /api/client-events: the PWA's watchdog reports a browser that got
 * stuck (IndexedDB or the sync lock) and whether it recovered. Written to the
 * server log as one line, without personal data, so that how often WebKit
 * wedges in the field can be counted; nothing is stored.
 */
export const clientEventRoutes = new Hono<AppEnv>()

clientEventRoutes.post(
  '/',
  route({
    tag: 'Sync',
    replayable: false,
    errors: [401, 429],
    summary: 'Report a browser stall',
    description:
      "The PWA's watchdog reports an IndexedDB operation or the sync lock that did not settle in time, and whether reopening brought the screen back. Logged on one line without personal data; nothing is stored. At most 30 per minute from one address.",
    response: { status: 202, schema: clientEventAcceptedSchema, description: 'Logged' },
  }),
  body(clientEventSchema),
  async (c) => {
    requireUser(c)
    const event = await c.var.body()
    // Info, not warn: a stall the client recovered from is expected on WebKit, not a server fault.
    console.info(
      `Client event: ${event.kind} ${event.operation} after ${event.waitedMs} ms on ${event.engine}, ${
        event.recovered ? 'recovered' : 'not recovered'
      }`,
    )
    return c.json({ logged: true as const }, 202)
  },
)
