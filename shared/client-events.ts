import { z } from 'zod'

/**
 * What the PWA reports to the server's log when its watchdog caught the
 * browser stuck: an IndexedDB operation or the cross-tab sync lock that did
 * not settle in time, and whether reopening (or letting go) brought it back.
 * No personal data: no ids, no row contents, no user agent string.
 */
const CLIENT_EVENT_KINDS = ['indexeddb-stalled', 'sync-lock-stalled'] as const

/** The browser engine, as far as the app can tell (for counting where stalls happen). */
export const BROWSER_ENGINES = ['webkit', 'gecko', 'blink', 'other'] as const

export const clientEventSchema = z.strictObject({
  kind: z.enum(CLIENT_EVENT_KINDS),
  /** Which probe or step stalled, in a word or two ("topics-count", "flush-lock"). */
  operation: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be a short lower-case name such as topics-count'),
  /** How long it waited before giving up, in milliseconds. */
  waitedMs: z.number().int().min(0).max(3_600_000),
  /** Whether the screen came back after the recovery. */
  recovered: z.boolean(),
  engine: z.enum(BROWSER_ENGINES),
})
export type ClientEvent = z.infer<typeof clientEventSchema>

/** Answer of POST /api/client-events. */
export const clientEventAcceptedSchema = z.object({ logged: z.literal(true) })

/** Client-reported events one client address may send per minute. */
export const CLIENT_EVENT_RATE_LIMIT = 30
