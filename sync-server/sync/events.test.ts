import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  approvedTopic,
  createTopic,
  expectProblem,
  signInAdmin,
  topicBody,
  unique,
} from '../test/api.ts'
import { Client, startTestServer, type TestServer } from '../test/server.ts'
import { closeEventStreams } from './events.ts'
import { hubFor } from './hub.ts'
import {
  type EventStream,
  emptyReplica,
  holdTransaction,
  openEventStream,
  pullToEnd,
  type Replica,
} from './testing.ts'

const SYNC = { heartbeatMs: 100, coalesceMs: 50, pollMs: 50 }

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer({}, { app: { sync: SYNC } })
  admin = await signInAdmin(server, 'events-admin')
})
afterAll(() => server?.stop())

/** Runs `body` with event streams for `clients`, closing them however it ends. */
async function withStreams(clients: Client[], body: (streams: EventStream[]) => Promise<void>) {
  const streams: EventStream[] = []
  try {
    for (const client of clients) {
      const stream = await openEventStream(client)
      streams.push(stream)
      await stream.waitFor('ready')
    }
    await body(streams)
  } finally {
    for (const stream of streams) stream.close()
  }
}

/** Long enough for a poke to have arrived if one were coming (poll and coalescing included). */
const quietPeriod = () => new Promise((resolve) => setTimeout(resolve, 600))

describe('GET /api/sync/events', () => {
  it('answers 401 without a session', async () => {
    expectProblem(await server.anonymous().get('/api/sync/events'), 401)
  })

  it('opens a text/event-stream, says ready, and sends heartbeats', async () => {
    const me = await server.signIn(unique('listener'))
    await withStreams([me], async ([stream]) => {
      expect(stream?.status).toBe(200)
      expect(stream?.contentType).toMatch(/^text\/event-stream/)
      expect(stream?.received[0]).toBe('ready')
      await stream?.waitFor(':', 2)
    })
  })

  it('pokes a client after a change it can see commits, so its pull finds the change', async () => {
    const mentor = await server.signIn(unique('poked-mentor'))
    const mentee = await server.signIn(unique('poked-mentee'))
    const topic = await approvedTopic(admin, mentor)
    const replica = emptyReplica()
    await pullToEnd(mentor, replica)
    await withStreams([mentor], async ([stream]) => {
      expect((await mentee.post(`/api/topics/${topic.id}/apply`)).status).toBe(201)
      // A transaction still running elsewhere in the cluster may hold the change back a
      // while: the poke comes again once it is through (see the held-back tests below).
      const found: string[] = []
      for (let pokes = 1; found.length === 0 && pokes <= 10; pokes++) {
        await stream?.waitFor('poke', pokes)
        const pages = await pullToEnd(mentor, replica)
        found.push(...pages.flatMap((p) => p.changes.applications.map((a) => a.topicId)))
      }
      expect(found).toEqual([topic.id])
    })
  })

  it('does not poke a client about a change it may not see', async () => {
    const mentor = await server.signIn(unique('quiet-mentor'))
    const stranger = await server.signIn(unique('quiet-stranger'))
    await withStreams([stranger, mentor, admin], async ([theirs, mentors, admins]) => {
      const proposed = await createTopic(mentor)
      await mentors?.waitFor('poke')
      await admins?.waitFor('poke')
      await quietPeriod()
      expect(theirs?.count('poke')).toBe(0)

      // Once it is approved, everyone may see it: now the stranger is poked too.
      await admin.post(`/api/admin/topics/${proposed.id}/review`, { status: 'approved' })
      await theirs?.waitFor('poke')
    })
  })

  it('pokes only the owner about a "Not interested" mark, and mentee and mentor about an invitation', async () => {
    const mentor = await server.signIn(unique('matching-mentor'))
    const menteeName = unique('matching-mentee')
    const mentee = await server.signIn(menteeName)
    const stranger = await server.signIn(unique('matching-stranger'))
    expect(
      (await mentee.patch(`/api/users/${menteeName}`, { lookingForMentor: true })).status,
    ).toBe(200)
    const topic = await approvedTopic(admin, mentor)
    await quietPeriod()
    await withStreams([mentee, mentor, stranger], async ([mentees, mentors, theirs]) => {
      expect((await mentee.post(`/api/topics/${topic.id}/dismissal`)).status).toBe(200)
      await mentees?.waitFor('poke')
      await quietPeriod()
      expect(mentors?.count('poke')).toBe(0)
      expect(theirs?.count('poke')).toBe(0)

      const invited = await mentor.post(`/api/topics/${topic.id}/invitations`, {
        menteeId: mentee.user?.id,
      })
      expect(invited.status).toBe(201)
      await mentors?.waitFor('poke')
      await mentees?.waitFor('poke', 2)
      await quietPeriod()
      expect(theirs?.count('poke')).toBe(0)
    })
  })

  it('pokes everyone about a change of the programme settings', async () => {
    const member = await server.signIn(unique('settings-member'))
    await withStreams([member], async ([stream]) => {
      const res = await admin.patch('/api/admin/settings', {
        matchWeights: { interests: 5, seniority: 2, location: 1, capacity: 1, responsiveness: 1 },
      })
      expect(res.status, res.text).toBe(200)
      await stream?.waitFor('poke')
    })
  })

  it('coalesces a burst of changes into a few pokes', async () => {
    const mentor = await server.signIn(unique('burst-mentor'))
    await withStreams([mentor], async ([stream]) => {
      // All at once, so the burst fits in a few coalescing windows even on a busy machine.
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          mentor.patch(`/api/users/${mentor.user?.username}`, { bio: `Bio ${i}` }),
        ),
      )
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
      await stream?.waitFor('poke')
      await quietPeriod()
      expect(stream?.count('poke')).toBeGreaterThan(0)
      expect(stream?.count('poke')).toBeLessThan(10)
    })
  })

  it('ends the stream once the user signs out', async () => {
    const me = await server.signIn(unique('signing-out'))
    const stream = await openEventStream(me)
    try {
      await stream.waitFor('ready')
      expect((await me.get('/api/auth/logout')).status).toBe(302)
      await stream.ended
      // The browser reconnects: now it is told it is not signed in.
      expectProblem(await me.get('/api/sync/events'), 401)
    } finally {
      stream.close()
    }
  })

  it('ends every open stream when the server shuts down', async () => {
    const me = await server.signIn(unique('shutdown'))
    const streams = [await openEventStream(me), await openEventStream(me)]
    try {
      for (const stream of streams) await stream.waitFor('ready')
      expect(closeEventStreams()).toBe(2)
      await Promise.all(streams.map((stream) => stream.ended))
      await expect.poll(() => hubFor(server.sql).stats().subscribers).toBe(0)
    } finally {
      for (const stream of streams) stream.close()
    }
  })

  it('lets go of everything when the client disconnects', async () => {
    const hub = hubFor(server.sql)
    // Streams of earlier tests are closed; their server side may still be finishing.
    await expect
      .poll(() => hub.stats())
      .toEqual({ subscribers: 0, timers: 0, listening: expect.any(Boolean), held: 0 })
    const me = await server.signIn(unique('leaver'))
    const streams = [await openEventStream(me), await openEventStream(me)]
    try {
      for (const stream of streams) await stream.waitFor('ready')
      expect(hub.stats().subscribers).toBe(2)
      // A poke leaves a coalescing timer behind (and, embedded, the poll timer runs).
      await me.patch(`/api/users/${me.user?.username}`, { bio: 'Bye' })
      for (const stream of streams) await stream.waitFor('poke')
      expect(hub.stats().timers).toBeGreaterThan(0)
    } finally {
      for (const stream of streams) stream.close()
    }
    await expect.poll(() => hub.stats().subscribers).toBe(0)
    expect(hub.stats().timers).toBe(0)
  })
})

describe('GET /api/sync/events across server instances', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'pokes the clients of one instance about a write on another (PostgreSQL only: an embedded database has one instance)',
    async () => {
      const second = await startTestServer({}, { sharing: server, app: { sync: SYNC } })
      try {
        const mentor = await server.signIn(unique('multi-mentor'))
        const mentee = await second.signIn(unique('multi-mentee'))
        const topic = await approvedTopic(admin, mentor)
        const onSecond = new Client(second.url)
        onSecond.cookie = mentor.cookie
        await withStreams([onSecond], async ([stream]) => {
          // The mentee applies through the first instance; the mentor listens on the second.
          const onFirst = new Client(server.url)
          onFirst.cookie = mentee.cookie
          expect((await onFirst.post(`/api/topics/${topic.id}/apply`)).status).toBe(201)
          await stream?.waitFor('poke')
        })
        expect(hubFor(second.sql).stats().listening).toBe(true)
      } finally {
        await second.stop()
      }
    },
  )
})

/** The watermark a cursor has brought its client to. */
const watermarkOf = (cursor: string | undefined) =>
  BigInt(JSON.parse(Buffer.from(cursor ?? '', 'base64url').toString()).w)

/**
 * Pulls until the replica has every row written so far: until its watermark
 * passes every transaction begun before now (other test files' transactions
 * on the same PostgreSQL server may hold it back a while).
 */
async function caughtUp(client: Client, replica: Replica): Promise<void> {
  const [now] = await server.sql<{ xmax: string }[]>`
    SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`
  const target = BigInt(now?.xmax ?? '0')
  await expect
    .poll(
      async () => {
        await pullToEnd(client, replica)
        return watermarkOf(replica.cursor) >= target
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true)
}

describe('GET /api/sync/events: a change held back by an older transaction', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'pokes again once the older transaction ends, and the pull then brings the change (PostgreSQL only: PGlite runs one transaction at a time)',
    async () => {
      const mentor = await server.signIn(unique('held-mentor'))
      const topic = await approvedTopic(admin, mentor)
      const reader = await server.signIn(unique('held-reader'))
      const replica = emptyReplica()
      await caughtUp(reader, replica)

      await withStreams([reader], async ([stream]) => {
        // Transaction A takes a transaction id and a version first, changes nothing the
        // reader sees (its commit notifies nobody), and stays open.
        const a = await holdTransaction(server.databaseUrl as string, async (tx) => {
          const [row] = await tx<{ version: string }[]>`
            SELECT pg_current_xact_id()::text AS xid, nextval('sync_version')::text AS version`
          return Number(row?.version)
        })
        try {
          expect(a.value).toBeGreaterThan(0)
          // Transaction B starts later, takes a later version and commits first: the poke comes at once.
          const b = await mentor.patch(
            `/api/topics/${topic.id}`,
            topicBody({ subject: 'Written by B' }),
          )
          expect(b.status).toBe(200)
          await stream?.waitFor('poke')
          // The watermark holds B's row back while A runs: this pull brings nothing of it.
          const during = await pullToEnd(reader, replica)
          expect(during.flatMap((p) => p.changes.topics.map((t) => t.id))).not.toContain(topic.id)
          await quietPeriod()
          expect(hubFor(server.sql).stats().held).toBeGreaterThan(0)
        } catch (error) {
          await a.commit()
          throw error
        }
        const pokes = stream?.count('poke') ?? 0

        // A commits without notifying anyone: the hub sees the watermark pass B and pokes again.
        await a.commit()
        await stream?.waitFor('poke', pokes + 1)
        const after = await pullToEnd(reader, replica)
        expect(after.flatMap((p) => p.changes.topics.map((t) => t.subject))).toContain(
          'Written by B',
        )
        expect(replica.tables.topics[topic.id]?.subject).toBe('Written by B')
        await expect.poll(() => hubFor(server.sql).stats().held).toBe(0)
      })
    },
  )
})
