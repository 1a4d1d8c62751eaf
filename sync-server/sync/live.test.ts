import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, signInAdmin, topicBody, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { DEFAULT_HUB_OPTIONS, hubFor } from './hub.ts'
import { type EventStream, openEventStream } from './testing.ts'

// The thundering herd: many open clients and a burst of changes they all see.
// A client pulls once per poke at most (pwa/src/sync/flusher.ts shares a pull
// among the pokes that arrive while it runs), so pokes bound its pulls.

const CLIENTS = 500
const PEOPLE = 250
const CHANGES = 100

/**
 * "A few": each poke after the first comes at least one window after the one
 * before, each window twice the last (up to the maximum), so over `spanMs`
 * there are at most 1 + the windows it takes to cover it, plus one spare
 * should a long pause start the windows over. A window of fixed length would
 * allow one poke per 150 ms.
 */
function pokeBound(spanMs: number): number {
  const { coalesceMs, maxCoalesceMs } = DEFAULT_HUB_OPTIONS
  let windows = 0
  for (let covered = 0, w = coalesceMs; covered < spanMs; w = Math.min(w * 2, maxCoalesceMs)) {
    covered += w
    windows += 1
  }
  return 1 + windows + 1
}

let server: TestServer

beforeAll(async () => {
  // Production's coalescing; heartbeats out of the way (each one looks up the session).
  server = await startTestServer({}, { app: { sync: { heartbeatMs: 600_000 } } })
})
afterAll(() => server?.stop())

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, task: (item: T) => Promise<R>) {
  const results: R[] = []
  for (let i = 0; i < items.length; i += width) {
    results.push(...(await Promise.all(items.slice(i, i + width).map(task))))
  }
  return results
}

describe('a burst of changes with many clients listening', () => {
  it(`costs each of ${CLIENTS} clients a few pokes for ${CHANGES} changes, the last one after the burst`, async () => {
    const admin = await signInAdmin(server, 'burst-admin')
    const mentor = await server.signIn('burst-mentor')
    const topic = await approvedTopic(admin, mentor)
    // Two devices each (phone and laptop), as people have.
    const people = await inBatches(
      Array.from({ length: PEOPLE }, (_, i) => i),
      25,
      (i) => server.signIn(unique(`burst-reader-${i}`)),
    )
    const devices: Client[] = people.flatMap((person) => [person, person])
    const streams: EventStream[] = []
    try {
      streams.push(...(await inBatches(devices, 50, (device) => openEventStream(device))))
      await inBatches(streams, 50, (stream) => stream.waitFor('ready', 1, 20_000))
      expect(streams).toHaveLength(CLIENTS)
      expect(hubFor(server.sql).stats().subscribers).toBe(CLIENTS)

      // Every change is one the readers see: an approved topic's subject, edited two at a time.
      let lastSent = 0
      const firstSent = Date.now()
      const answers = await inBatches(
        Array.from({ length: CHANGES }, (_, i) => i),
        2,
        (i) => {
          lastSent = Date.now()
          return mentor.patch(`/api/topics/${topic.id}`, topicBody({ subject: `Burst ${i}` }))
        },
      )
      expect(answers.map((a) => a.status)).toEqual(Array(CHANGES).fill(200))
      // The burst is over once the hub is quiet twice in a row with the same pokes delivered.
      let before = -1
      await expect
        .poll(
          () => {
            const total = streams.reduce((n, s) => n + s.count('poke'), 0)
            const settled = hubFor(server.sql).quiet() && total === before
            before = total
            return settled
          },
          { timeout: 30_000, interval: 200 },
        )
        .toBe(true)
      expect(lastPokes(streams)).toBeGreaterThanOrEqual(lastSent)

      // Every poke of the burst was sent between the first change and the last arrival.
      const spanMs = Math.max(...streams.map((s) => s.lastAt('poke') ?? 0)) - firstSent
      const counts = streams.map((s) => s.count('poke'))
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(1)
      expect(Math.max(...counts)).toBeLessThanOrEqual(pokeBound(spanMs))
    } finally {
      for (const stream of streams) stream.close()
    }
    // Setting up 500 streams takes a while on a busy machine; the counts, not the time, are tested.
  }, 120_000)
})

describe('a change in a quiet period', () => {
  it('pokes at once, not at the next poll of the watermark (embedded) or at a window end', async () => {
    // An hour between polls: only the commit itself (NOTIFY, or the in-process announcement
    // on the embedded database) can bring this poke within waitFor's few seconds.
    const slow = await startTestServer(
      {},
      { app: { sync: { heartbeatMs: 600_000, pollMs: 3_600_000, coalesceMs: 3_600_000 } } },
    )
    try {
      const me = await slow.signIn('quiet-writer')
      const stream = await openEventStream(me)
      try {
        await stream.waitFor('ready')
        const res = await me.patch(`/api/users/${me.user?.username}`, { bio: 'First change' })
        expect(res.status).toBe(200)
        await stream.waitFor('poke')
        expect(stream.count('poke')).toBe(1)
        // Both databases tell the hub who a commit concerns (embedded: in its one session).
        expect(hubFor(slow.sql).stats().listening).toBe(true)
      } finally {
        stream.close()
      }
    } finally {
      await slow.stop()
    }
  })

  it.skipIf(process.env.DATABASE_URL)(
    'still pokes after the embedded session lost its LISTEN: it listens again and pokes everyone (embedded only)',
    async () => {
      const fast = await startTestServer(
        {},
        { app: { sync: { heartbeatMs: 600_000, pollMs: 50 } } },
      )
      try {
        const me = await fast.signIn('unlistened')
        const stream = await openEventStream(me)
        try {
          await stream.waitFor('ready')
          await fast.sql`UNLISTEN *`
          expect(
            (await me.patch(`/api/users/${me.user?.username}`, { bio: 'Missed' })).status,
          ).toBe(200)
          await stream.waitFor('poke')
          const [row] = await fast.sql<{ channels: string[] }[]>`
            SELECT ARRAY(SELECT pg_listening_channels()) AS channels`
          expect(row?.channels).toContain('pairwise_sync')
        } finally {
          stream.close()
        }
      } finally {
        await fast.stop()
      }
    },
  )
})

/** The earliest of the streams' last pokes: every client was poked after this. */
function lastPokes(streams: EventStream[]): number {
  return Math.min(...streams.map((s) => s.lastAt('poke') ?? 0))
}
