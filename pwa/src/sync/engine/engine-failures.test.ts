import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DESCRIPTION_MAX_LENGTH } from '../../../../shared/constants.ts'
import { PUSH_BODY_LIMIT_BYTES, type PushMutation } from '../../../../shared/sync.ts'
import {
  approvedTopic,
  createTopic,
  signInAdmin,
  statusOf,
  topicCount,
  unique,
} from '../../../../sync-server/test/api.ts'
import {
  type Client,
  startTestServer,
  type TestServer,
} from '../../../../sync-server/test/server.ts'
import {
  createEngine,
  flushSettled,
  pullUntil,
  rows,
  startSynced,
  stopEngines,
  waitForStatus,
} from '../testing/harness.ts'
import type { RejectedRow } from './db.ts'
import type { FlushResult } from './engine.ts'
import { STALE_AFTER_MS, STALE_DETAIL } from './push.ts'
import { readOutbox, readRejected, readRow, readTable } from './view.ts'

// What goes wrong, and what the client does then: refusals, an ended
// session, lost answers, a failing server, a hung request, old mutations.

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, unique('failures-admin'))
})
afterEach(stopEngines)
afterAll(() => server?.stop())

async function applicationsOf(topicId: string, menteeId: string): Promise<number> {
  const [row] = await server.sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM applications
    WHERE topic_id = ${topicId} AND mentee_id = ${menteeId}`
  return row?.count ?? -1
}

/** A client that synced what it needs (`probe`), then went offline. */
async function offlineEngine(
  client: Client,
  options: Parameters<typeof createEngine>[2] = {},
  probe = rows(['users', client.user?.id ?? '']),
) {
  const t = createEngine(server, client, options)
  await startSynced(t.engine, probe)
  t.network.offline = true
  return t
}

describe('refusals', () => {
  it('a topic that filled up meanwhile refuses an offline apply, and the client shows why', async () => {
    const mentor = await server.signIn(unique('full-mentor'))
    const late = await server.signIn(unique('late'))
    const early = await server.signIn(unique('early'))
    const topic = await approvedTopic(admin, mentor, { maxMentees: 1 })

    const { engine, network } = await offlineEngine(
      late,
      {},
      rows(['topics', topic.id, (t) => t.status === 'approved']),
    )
    const toasts: RejectedRow[] = []
    engine.onRejected((row) => toasts.push(row))
    const { applicationId } = await engine.mutate.applyToTopic(topic.id)
    expect(await readRow(engine.db, 'applications', applicationId)).toMatchObject({
      sync: { awaitingConfirmation: true },
    })
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })

    // Meanwhile someone else takes the only place.
    const applied = await early.post(`/api/topics/${topic.id}/apply`)
    expect(
      (await mentor.patch(`/api/applications/${applied.body.id}`, { status: 'accepted' })).status,
    ).toBe(200)

    network.offline = false
    expect(await engine.flush()).toMatchObject({ outcome: 'synced', applied: 0, rejected: 1 })
    await pullUntil(
      engine,
      async () => (await readRow(engine.db, 'topics', topic.id))?.currentMentees === 1,
    )
    const detail = 'This topic is full: it already has the maximum number of mentees.'
    expect(toasts.map((t) => t.detail)).toEqual([detail])
    expect(await readRejected(engine.db)).toMatchObject([
      {
        status: 409,
        detail,
        label: expect.stringContaining(topic.subject),
        path: `/api/topics/${topic.id}/apply`,
      },
    ])
    // The optimistic application is gone; the topic says why.
    expect(await readRow(engine.db, 'applications', applicationId)).toBeUndefined()
    expect(await readRow(engine.db, 'topics', topic.id)).toMatchObject({
      currentMentees: 1,
      sync: { pending: false, rejected: [{ status: 409, detail }] },
    })
    expect(await readOutbox(engine.db)).toEqual([])
    expect(await applicationsOf(topic.id, late.user?.id ?? '')).toBe(0)
    await waitForStatus(engine, (s) => s.rejectedCount === 1 && s.pendingCount === 0)

    await engine.dismissRejected()
    await waitForStatus(engine, (s) => s.rejectedCount === 0)
    expect((await readRow(engine.db, 'topics', topic.id))?.sync.rejected).toEqual([])
  })

  it('keeps the server’s detail and returns the merged view to the server’s state', async () => {
    const mentor = await server.signIn(unique('conflict-mentor'))
    const other = await signInAdmin(server, unique('other-admin'))
    const topic = await createTopic(mentor)
    const { engine, network } = await offlineEngine(admin, {}, rows(['topics', topic.id]))
    await engine.mutate.reviewTopic(topic.id, { status: 'approved' })
    expect((await readRow(engine.db, 'topics', topic.id))?.status).toBe('approved')
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })

    const res = await other.post(`/api/admin/topics/${topic.id}/review`, {
      status: 'rejected',
      rejectionReason: 'Duplicate',
    })
    expect(res.status).toBe(200)
    network.offline = false
    expect(await engine.flush()).toMatchObject({ outcome: 'synced', rejected: 1 })
    await pullUntil(
      engine,
      async () => (await readRow(engine.db, 'topics', topic.id))?.rejectionReason === 'Duplicate',
    )
    expect(await readRow(engine.db, 'topics', topic.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Duplicate',
      sync: {
        pending: false,
        rejected: [
          {
            status: 409,
            detail: 'This topic is rejected; only proposed topics can be reviewed.',
          },
        ],
      },
    })
  })

  // Pushes and pulls about 12 MB of descriptions: slow on a loaded 2-core machine.
  it('splits a batch too large for one push, and refuses alone a mutation the push refuses whole', async () => {
    const mentor = await server.signIn(unique('bulk-mentor'))
    const { engine, network } = await offlineEngine(mentor)
    const description = 'x'.repeat(45_000)
    const subjects: string[] = []
    for (let i = 0; i < 100; i++) {
      subjects.push(unique('Bulk'))
      await engine.mutate.createTopic({
        subject: subjects.at(-1) as string,
        description,
        maxMentees: 1,
        seniorityRequired: ['junior'],
      })
    }
    // A push the server refuses whole (too large for it, say) while it carries this one.
    const poison = await engine.mutate.updateProfile(mentor.user?.username ?? '', { bio: 'Poison' })
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    network.intercept = async (sent) => {
      const ids = (sent.body as { mutations?: PushMutation[] } | undefined)?.mutations?.map(
        (m) => m.id,
      )
      if (!ids?.includes(poison.mutationId)) return undefined
      const problem = {
        type: 'about:blank',
        title: 'Request too large',
        status: 413,
        detail: 'The request body is too large.',
      }
      return new Response(JSON.stringify(problem), { status: 413 })
    }
    network.offline = false
    const result = await flushSettled(engine)
    expect(result).toMatchObject({ outcome: 'synced', applied: 100, rejected: 1 })
    const pushes = network.sent.filter((s) => s.path === '/api/sync/push')
    const sizes = pushes.map((p) => (p.body as { mutations: unknown[] }).mutations.length)
    expect(sizes[0]).toBeLessThan(100)
    expect(sizes).toContain(1)
    for (const push of pushes) {
      expect(new TextEncoder().encode(JSON.stringify(push.body)).length).toBeLessThan(
        PUSH_BODY_LIMIT_BYTES,
      )
    }
    expect(await readRejected(engine.db)).toMatchObject([
      {
        id: poison.mutationId,
        status: 413,
        detail: expect.stringMatching(/^This change is too large to send/),
      },
    ])
    for (const subject of [subjects[0], subjects[99]])
      expect(await topicCount(server, subject ?? '')).toBe(1)
    expect((await readTable(engine.db, 'topics')).filter((t) => t.sync.pending)).toEqual([])
  }, 90_000)

  it('flushes a queue of 100 topic creations with the longest descriptions, in pushes under the limit', async () => {
    const mentor = await server.signIn(unique('max-mentor'))
    const { engine, network } = await offlineEngine(mentor)
    // 50,000 characters of three bytes each: about 150 kB a mutation, 15 MB for the queue.
    const description = `<p>${'€'.repeat(DESCRIPTION_MAX_LENGTH - 7)}</p>`
    expect(description.length).toBe(DESCRIPTION_MAX_LENGTH)
    const subjects: string[] = []
    for (let i = 0; i < 100; i++) {
      subjects.push(unique('Max'))
      await engine.mutate.createTopic({
        subject: subjects.at(-1) as string,
        description,
        maxMentees: 1,
        seniorityRequired: ['junior'],
      })
    }
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    network.offline = false
    const result = await flushSettled(engine)
    expect(result).toMatchObject({ outcome: 'synced', applied: 100, rejected: 0 })
    const pushes = network.sent.filter((s) => s.path === '/api/sync/push')
    const sizes = pushes.map((p) => (p.body as { mutations: unknown[] }).mutations.length)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100)
    expect(pushes.length).toBeGreaterThanOrEqual(4)
    for (const push of pushes) {
      expect(new TextEncoder().encode(JSON.stringify(push.body)).length).toBeLessThanOrEqual(
        PUSH_BODY_LIMIT_BYTES,
      )
    }
    expect(await readRejected(engine.db)).toEqual([])
    expect(await readOutbox(engine.db)).toEqual([])
    for (const subject of subjects) expect(await topicCount(server, subject)).toBe(1)
    const [stored] = await server.sql<{ length: number }[]>`
      SELECT length(description)::int AS length FROM topics WHERE subject = ${subjects[99] ?? ''}`
    expect(stored?.length).toBe(DESCRIPTION_MAX_LENGTH)
  }, 120_000) // 15 MB through IndexedDB, the sanitiser and back: seconds alone, more on a busy machine.

  it('refuses, unsent and with a clear message, a mutation too large for any push, and sends the rest', async () => {
    const mentor = await server.signIn(unique('huge-mentor'))
    const { engine, network } = await offlineEngine(mentor)
    const before = await engine.mutate.updateProfile(mentor.user?.username ?? '', { bio: 'Before' })
    const topic = { maxMentees: 1, seniorityRequired: ['junior' as const] }
    const huge = await engine.mutate.createTopic({ subject: unique('Huge'), ...topic })
    const afterSubject = unique('After')
    const after = await engine.mutate.createTopic({ subject: afterSubject, ...topic })
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    // Queued by an older version, say, with no length check: larger than any push may be.
    const [row] = await engine.db.outbox.where('id').equals(huge.mutationId).toArray()
    await engine.db.outbox.update(row?.seq as number, {
      body: { ...(row?.body as object), description: 'x'.repeat(PUSH_BODY_LIMIT_BYTES) },
    })
    network.offline = false
    const result = await flushSettled(engine)
    expect(result).toMatchObject({ outcome: 'synced', applied: 2, rejected: 1 })
    expect(network.pushed.map((m) => m.id)).toEqual([before.mutationId, after.mutationId])
    expect(await readRejected(engine.db)).toMatchObject([
      {
        id: huge.mutationId,
        status: 413,
        detail: expect.stringMatching(
          /^This change is too large to send \(4\.0 MB, and at most 4\.0 MB can be sent at once\)\. It was not saved/,
        ),
      },
    ])
    expect(await statusOf(server, huge.topicId)).toBeUndefined()
    expect((await mentor.get('/api/user')).body.bio).toBe('Before')
    expect(await topicCount(server, afterSubject)).toBe(1)
    await waitForStatus(engine, (s) => s.pendingCount === 0 && s.rejectedCount === 1)
    // Nothing is left to retry: the next flush pushes nothing.
    expect(await engine.flush()).toMatchObject({ outcome: 'synced', pushed: 0 })
  })
})

describe('an ended session', () => {
  it('keeps the queue, asks to sign in again, and flushes once signed in', async () => {
    const mentor = await server.signIn(unique('session-mentor'))
    const username = unique('session-mentee')
    const mentee = await server.signIn(username)
    const topic = await approvedTopic(admin, mentor)
    const { engine, network } = createEngine(server, mentee)
    await startSynced(engine, rows(['topics', topic.id, (t) => t.status === 'approved']))

    await mentee.get('/api/auth/logout')
    await engine.mutate.applyToTopic(topic.id)
    expect(await engine.flush()).toMatchObject({ outcome: 'needs-sign-in' })
    await waitForStatus(
      engine,
      (s) => s.needsSignIn && s.pendingCount === 1 && s.rejectedCount === 0,
    )
    // Pushed and answered 401: kept, as sent (a session ending mid-batch may have applied some).
    expect(await readOutbox(engine.db)).toMatchObject([{ status: 'sent' }])
    // Nothing more is tried until the person signs in: no request, no rejection.
    const requests = network.sent.length
    expect(await engine.flush()).toMatchObject({ outcome: 'needs-sign-in' })
    expect(network.sent.length).toBe(requests)

    network.client = await server.signIn(username)
    expect(await engine.signedIn()).toMatchObject({ outcome: 'synced', applied: 1 })
    expect(await applicationsOf(topic.id, mentee.user?.id ?? '')).toBe(1)
    await waitForStatus(engine, (s) => !s.needsSignIn && s.pendingCount === 0)
  })

  it('takes a 401 to the push itself the same way, never as a refused write', async () => {
    const mentor = await server.signIn(unique('push401-mentor'))
    const mentee = await server.signIn(unique('push401-mentee'))
    const topic = await approvedTopic(admin, mentor)
    const { engine, network } = await offlineEngine(
      mentee,
      {},
      rows(['topics', topic.id, (t) => t.status === 'approved']),
    )
    await engine.mutate.applyToTopic(topic.id)
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    network.offline = false
    network.intercept = async (sent) =>
      sent.path === '/api/sync/push'
        ? new Response(
            JSON.stringify({ status: 401, detail: 'You are not signed in. Sign in to continue.' }),
            { status: 401 },
          )
        : undefined
    expect(await engine.flush()).toMatchObject({ outcome: 'needs-sign-in' })
    expect(await readRejected(engine.db)).toEqual([])
    expect(await readOutbox(engine.db)).toMatchObject([{ status: 'sent' }])
    network.intercept = null
    expect(await engine.signedIn()).toMatchObject({ outcome: 'synced', applied: 1 })
    expect(await applicationsOf(topic.id, mentee.user?.id ?? '')).toBe(1)
  })

  it('never applies one user’s queue under another user’s session: the server refuses it, the queue stays', async () => {
    const alice = await server.signIn(unique('alice'))
    const bob = await server.signIn(unique('bob'))
    const { engine, network } = await offlineEngine(alice)
    const { topicId, mutationId } = await engine.mutate.createTopic({
      subject: 'Alice’s',
      maxMentees: 1,
      seniorityRequired: ['mid'],
    })
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    network.offline = false
    const sentBefore = network.sent.length
    const queuedBefore = await readOutbox(engine.db)
    expect(queuedBefore).toMatchObject([{ id: mutationId }])
    network.client = bob
    expect(await engine.flush()).toMatchObject({
      outcome: 'needs-sign-in',
      error: expect.stringMatching(/signed in as someone else/),
    })
    // One request: the push itself, naming its user; no GET /api/user before it.
    expect(network.sent.slice(sentBefore).map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /api/sync/push',
    ])
    expect(network.sent.at(-1)?.body).toMatchObject({ userId: alice.user?.id })
    expect(await statusOf(server, topicId)).toBeUndefined()
    await waitForStatus(
      engine,
      (s) => s.needsSignIn && s.pendingCount === 1 && s.rejectedCount === 0,
    )
    expect(await readRejected(engine.db)).toEqual([])
    // Refused before anything ran: the row is as it was before that push (its key was not used).
    expect(await readOutbox(engine.db)).toEqual(queuedBefore)
    // Nothing more is tried until the person signs in again, as Alice.
    expect(await engine.flush()).toMatchObject({ outcome: 'needs-sign-in' })
    network.client = alice
    expect(await engine.signedIn()).toMatchObject({ outcome: 'synced', applied: 1 })
    expect(await statusOf(server, topicId)).toBe('proposed')
  })
})

describe('lost answers and failing servers', () => {
  it('applies each mutation of a batch exactly once when the answer is lost', async () => {
    const mentor = await server.signIn(unique('lost-mentor'))
    const { engine, network } = await offlineEngine(mentor)
    const subjects = [unique('Lost'), unique('Lost')]
    for (const subject of subjects) {
      await engine.mutate.createTopic({ subject, maxMentees: 1, seniorityRequired: ['mid'] })
    }
    await engine.mutate.updateProfile(mentor.user?.username ?? '', { bio: 'Once' })
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })

    network.offline = false
    network.lose = /^\/api\/sync\/push$/
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    expect((await readOutbox(engine.db)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent'])
    for (const subject of subjects) expect(await topicCount(server, subject)).toBe(1)

    network.lose = null
    let replayed: boolean[] = []
    network.intercept = async (sent, forward) => {
      if (sent.path !== '/api/sync/push') return undefined
      const res = await forward()
      const body = await res.json()
      replayed = body.results.map((r: { replayed: boolean }) => r.replayed)
      return new Response(JSON.stringify(body), { status: res.status })
    }
    expect(await flushSettled(engine)).toMatchObject({ outcome: 'synced', applied: 3 })
    expect(replayed).toEqual([true, true, true])
    for (const subject of subjects) expect(await topicCount(server, subject)).toBe(1)
    expect(await readOutbox(engine.db)).toEqual([])
  })

  it('applies a batch pushed twice once', async () => {
    const mentor = await server.signIn(unique('twice-mentor'))
    const { engine, network } = await offlineEngine(mentor)
    const subject = unique('Twice')
    await engine.mutate.createTopic({ subject, maxMentees: 1, seniorityRequired: ['mid'] })
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    network.offline = false
    network.intercept = async (sent, forward) => {
      if (sent.path !== '/api/sync/push') return undefined
      await (await forward()).text()
      return forward()
    }
    expect(await engine.flush()).toMatchObject({ outcome: 'synced', applied: 1 })
    expect(await topicCount(server, subject)).toBe(1)
  })

  it('stops at a 5xx result, retries the rest after a backoff, and applies each once', async () => {
    const mentor = await server.signIn(unique('fivexx-mentor'))
    const { engine, network, clock } = await offlineEngine(mentor, { random: () => 0.5 })
    const subjects = [unique('Five'), unique('Five'), unique('Five')]
    for (const subject of subjects) {
      await engine.mutate.createTopic({ subject, maxMentees: 1, seniorityRequired: ['mid'] })
    }
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    network.offline = false
    // The server applies the first mutation and fails on the second (as a crash mid-batch would).
    network.intercept = async (sent) => {
      if (sent.path !== '/api/sync/push') return undefined
      const body = sent.body as { clientId: string; mutations: PushMutation[] }
      const first = await network.client.post('/api/sync/push', {
        ...body,
        mutations: body.mutations.slice(0, 1),
      })
      const failed = {
        id: body.mutations[1]?.id,
        status: 500,
        body: { status: 500, detail: 'Something went wrong on the server. Please try again.' },
        replayed: false,
      }
      return new Response(JSON.stringify({ results: [...first.body.results, failed] }), {
        status: 200,
      })
    }
    expect(await engine.flush()).toMatchObject({ outcome: 'retry' })
    expect((await readOutbox(engine.db)).map((r) => r.status)).toEqual(['applied', 'sent', 'sent'])
    expect(await readRejected(engine.db)).toEqual([])

    network.intercept = null
    const before = network.sent.length
    // The retry waits for its backoff, then runs by itself.
    const { retryAt } = await waitForStatus(engine, (s) => s.retryAt !== null)
    clock.advance((retryAt as number) - clock.now() - 1)
    expect(network.sent.length).toBe(before)
    clock.advance(1)
    await waitForStatus(engine, (s) => s.pendingCount === 0 && !s.syncing && s.lastError === null)
    for (const subject of subjects) expect(await topicCount(server, subject)).toBe(1)
    expect(network.pushed.filter((m) => m.path === '/api/topics')).toHaveLength(3 + 2)
  })

  it('does not push blindly a mutation sent long ago whose answer never came', async () => {
    const mentor = await server.signIn(unique('stale-mentor'))
    const { engine, network, clock } = await offlineEngine(mentor)
    const subject = unique('Stale')
    const { mutationId } = await engine.mutate.createTopic({
      subject,
      maxMentees: 1,
      seniorityRequired: ['mid'],
    })
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    const [row] = await readOutbox(engine.db)
    // Sent that long ago: the row's own time, not the clock moved on, which would
    // also fire the retry and the watchdogs of everything under way.
    await engine.db.outbox.update(row?.seq as number, {
      status: 'sent',
      firstSentAt: clock.now() - STALE_AFTER_MS - 1,
    })
    network.offline = false
    expect(await engine.flush()).toMatchObject({ outcome: 'synced', rejected: 1 })
    expect(network.pushed).toEqual([])
    expect(await readRejected(engine.db)).toMatchObject([
      { id: mutationId, status: 0, detail: STALE_DETAIL },
    ])
    expect(await topicCount(server, subject)).toBe(0)
  })
})

describe('the watchdog', () => {
  it('un-wedges a flush whose request never answers', async () => {
    const mentor = await server.signIn(unique('hung-mentor'))
    const topic = await approvedTopic(admin, mentor)
    const mentee = await server.signIn(unique('hung-mentee'))
    const { engine, network, clock } = createEngine(server, mentee, {
      watchdogMs: 60_000,
      random: () => 0.5,
    })
    await startSynced(engine, rows(['topics', topic.id, (t) => t.status === 'approved']))
    network.hang = /^\/api\/sync\/push$/
    // The flush after the write hangs in its push.
    await engine.mutate.applyToTopic(topic.id)
    while (!network.pushed.length) await new Promise((r) => setTimeout(r, 5))
    expect(engine.status.get().syncing).toBe(true)

    clock.advance(60_000)
    // The status's pending count follows the outbox a moment later (a live query).
    await waitForStatus(engine, (s) => !s.syncing && s.lastError !== null && s.pendingCount > 0)
    expect(engine.status.get()).toMatchObject({
      pendingCount: 1,
      lastError: 'Sync took too long and will start again.',
    })
    // The retry comes by itself after its backoff.
    network.hang = null
    clock.advance(500)
    await waitForStatus(engine, (s) => s.pendingCount === 0 && !s.syncing && s.lastError === null)
    expect(await applicationsOf(topic.id, mentee.user?.id ?? '')).toBe(1)
  })

  it('asks for smaller pages when a pull runs out of time, down to a floor', async () => {
    const user = await server.signIn(unique('slow'))
    const { engine, network, clock } = createEngine(server, user, { requestTimeoutMs: 10_000 })
    const pullLimits = () =>
      network.sent.filter((s) => s.path === '/api/sync/pull').map((s) => s.query.get('limit'))
    /** Runs `flush`, ending each slow request with its time limit, until it is over. */
    async function throughTimeouts(flush: Promise<FlushResult>): Promise<FlushResult> {
      let result: FlushResult | undefined
      void flush.then((r) => {
        result = r
      })
      while (!result) {
        if (network.waiting > 0) clock.advance(10_000)
        await new Promise((r) => setTimeout(r, 5))
      }
      return result
    }

    // A connection that cannot carry a page of more than 100 rows in time.
    network.slow = (url) =>
      url.pathname === '/api/sync/pull' && Number(url.searchParams.get('limit') ?? 500) > 100
    expect(await throughTimeouts(engine.start())).toMatchObject({ outcome: 'synced' })
    expect(pullLimits()).toEqual([null, '250', '125', '62'])

    // One that carries nothing: no answer, at the smallest page.
    network.slow = (url) => url.pathname === '/api/sync/pull'
    expect(await throughTimeouts(engine.flush())).toMatchObject({
      outcome: 'offline',
      error: expect.stringContaining('in time'),
    })
    expect(pullLimits().at(-1)).toBe('25')
    network.slow = null
    expect(await engine.flush()).toMatchObject({ outcome: 'synced' })
  })
})
