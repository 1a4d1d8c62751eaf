import Dexie from 'dexie'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SYNC_TABLES } from '../../../../shared/sync.ts'
import {
  approvedTopic,
  createTopic,
  signInAdmin,
  statusOf,
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
  rows,
  startSynced,
  stopEngines,
  waitForStatus,
} from '../testing/harness.ts'
import { readApplicationsOfTopic, readOutbox, readRow, readTable } from './view.ts'

// The sync client against the real server: offline writes, reconnecting,
// what the server ends up with, and what pulls move.

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, unique('engine-admin'))
})
afterEach(stopEngines)
afterAll(() => server?.stop())

async function applicationStatus(id: string) {
  const [row] = await server.sql<{ status: string; rejection_reason: string | null }[]>`
    SELECT status, rejection_reason FROM applications WHERE id = ${id}`
  return row
}

describe('a first sync', () => {
  it('asks for the next page while it writes the one it has', async () => {
    const mentor = await server.signIn(unique('paged-mentor'))
    for (let i = 0; i < 3; i++) await approvedTopic(admin, mentor)
    const { engine, network } = createEngine(server, mentor)
    // Pages of two rows, so a first sync takes several.
    network.intercept = async (sent) => {
      if (sent.path !== '/api/sync/pull') return undefined
      events.push('ask')
      const url = new URL(`${server.url}${sent.path}?${sent.query}`)
      url.searchParams.set('limit', '2')
      return fetch(url, { headers: { cookie: mentor.cookie ?? '' } })
    }
    const events: string[] = []
    const onCommit = (parts: Record<string, unknown>) => {
      if (Object.keys(parts).some((k) => k.startsWith(`idb://${engine.db.name}/meta/`)))
        events.push('written')
    }
    Dexie.on('storagemutated', onCommit)
    try {
      expect(await engine.start()).toMatchObject({ outcome: 'synced' })
    } finally {
      Dexie.on('storagemutated').unsubscribe(onCommit)
    }
    const asks = events.filter((e) => e === 'ask').length
    expect(asks).toBeGreaterThan(3)
    // The second page was asked for before the first one was written, and so on.
    const fromFirstAsk = events.slice(events.indexOf('ask'))
    expect(fromFirstAsk.slice(0, 3)).toEqual(['ask', 'ask', 'written'])
    expect(await readTable(engine.db, 'topics')).toHaveLength(
      (await mentor.get('/api/topics')).body.length,
    )
  })

  it("lets the screens read its first page before the second page's transaction", async () => {
    const mentor = await server.signIn(unique('first-page-mentor'))
    for (let i = 0; i < 3; i++) await approvedTopic(admin, mentor)
    const { engine, network } = createEngine(server, mentor)
    // Pages of two rows, each answered at once (fetched beforehand): the second page is in
    // before the first one is written, as on a fast network.
    const pages = new Map<string | null, string>()
    for (let cursor: string | null = null; ; ) {
      const url = new URL(`${server.url}/api/sync/pull`)
      url.searchParams.set('limit', '2')
      if (cursor !== null) url.searchParams.set('cursor', cursor)
      const text = await (await fetch(url, { headers: { cookie: mentor.cookie ?? '' } })).text()
      pages.set(cursor, text)
      const page = JSON.parse(text) as { hasMore: boolean; cursor: string }
      if (!page.hasMore) break
      cursor = page.cursor
    }
    let answered = 0
    network.intercept = async (sent) => {
      if (sent.path !== '/api/sync/pull') return undefined
      const text = pages.get(new URLSearchParams(sent.query).get('cursor'))
      if (text === undefined) throw new Error(`No page for ${sent.query}`)
      answered += 1
      return new Response(text, { headers: { 'content-type': 'application/json' } })
    }
    // What a screen does when a write commits: it reads again on the next turn of the event
    // loop (useSyncedCoalesced schedules its read as a timer).
    let firstRead: Promise<number> | undefined
    const onCommit = (parts: Record<string, unknown>) => {
      // The first page's commit: the first to touch the topics once a page has come (the
      // database's creation touches every table before the first pull is asked for).
      const touched = Object.keys(parts).some((k) =>
        k.startsWith(`idb://${engine.db.name}/topics/`),
      )
      if (firstRead || answered === 0 || !touched) return
      firstRead = new Promise((resolve, reject) =>
        setTimeout(() => readTable(engine.db, 'topics').then((t) => resolve(t.length), reject), 0),
      )
    }
    Dexie.on('storagemutated', onCommit)
    try {
      expect(await engine.start()).toMatchObject({ outcome: 'synced' })
    } finally {
      Dexie.on('storagemutated').unsubscribe(onCommit)
    }
    // The first page's two topics, not those of the pages after it.
    expect(await firstRead).toBe(2)
    expect((await readTable(engine.db, 'topics')).length).toBeGreaterThan(2)
  })

  it('reads no held versions in its pages (one pass sends each row once); a later pull does', async () => {
    const mentor = await server.signIn(unique('unheld-mentor'))
    for (let i = 0; i < 3; i++) await approvedTopic(admin, mentor)
    const { engine, network } = createEngine(server, mentor)
    // Pages of two rows, so a first sync takes several.
    let pages = 0
    network.intercept = async (sent) => {
      if (sent.path !== '/api/sync/pull') return undefined
      pages += 1
      const url = new URL(`${server.url}${sent.path}?${sent.query}`)
      url.searchParams.set('limit', '2')
      return fetch(url, { headers: { cookie: mentor.cookie ?? '' } })
    }
    const held: string[] = []
    for (const table of SYNC_TABLES) {
      const spied = engine.db.table(table)
      const bulkGet = spied.bulkGet.bind(spied)
      spied.bulkGet = ((keys: string[]) => {
        held.push(table)
        return bulkGet(keys)
      }) as typeof spied.bulkGet
    }
    expect(await engine.start()).toMatchObject({ outcome: 'synced' })
    expect(pages).toBeGreaterThan(3)
    expect(held).toEqual([])
    expect(await readTable(engine.db, 'topics')).toHaveLength(
      (await mentor.get('/api/topics')).body.length,
    )

    // A pull from where the device stands checks what it holds: a row it brings may be older.
    await approvedTopic(admin, mentor)
    expect(await flushSettled(engine)).toMatchObject({ outcome: 'synced' })
    expect(held).toContain('topics')
  })

  it('brings what the REST reads show, and marks nothing pending', async () => {
    const mentor = await server.signIn(unique('first-mentor'))
    const topic = await approvedTopic(admin, mentor)
    const { engine } = createEngine(server, mentor)
    const result = await startSynced(
      engine,
      rows(['topics', topic.id, (t) => t.status === 'approved'], ['users', mentor.user?.id ?? '']),
    )
    expect(result).toMatchObject({ outcome: 'synced', pushed: 0 })
    const synced = await readRow(engine.db, 'topics', topic.id)
    const { version: _, sync, ...rest } = synced ?? { version: 0, sync: undefined }
    expect(rest).toEqual((await mentor.get(`/api/topics/${topic.id}`)).body)
    expect(sync).toMatchObject({ pending: false })
    expect(await readRow(engine.db, 'preferences', 'me')).toMatchObject({
      emailNotifications: { newApplications: true },
    })
    const status = await waitForStatus(engine, (s) => s.lastSyncedAt !== null)
    expect(status).toMatchObject({ online: true, pendingCount: 0, needsSignIn: false })
  })
})

describe('offline writes', () => {
  it('queues review, apply, accept and reject offline and applies them on reconnect', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const first = await server.signIn(unique('mentee'))
    const second = await server.signIn(unique('mentee'))
    const open = await createTopic(mentor, { maxMentees: 2 })
    const vague = await createTopic(mentor)

    // The administrator reviews both topics on a train.
    const reviewer = createEngine(server, admin)
    await startSynced(reviewer.engine, rows(['topics', open.id], ['topics', vague.id]))
    reviewer.network.offline = true
    await reviewer.engine.mutate.reviewTopic(open.id, { status: 'approved' })
    await reviewer.engine.mutate.reviewTopic(vague.id, {
      status: 'rejected',
      rejectionReason: 'Too vague',
    })
    expect(await reviewer.engine.flush()).toMatchObject({ outcome: 'offline' })
    expect(await readRow(reviewer.engine.db, 'topics', open.id)).toMatchObject({
      status: 'approved',
      sync: { pending: true },
    })
    await waitForStatus(reviewer.engine, (s) => s.pendingCount === 2 && !s.online)
    expect(await statusOf(server, open.id)).toBe('proposed')

    reviewer.network.offline = false
    expect(await flushSettled(reviewer.engine)).toMatchObject({ outcome: 'synced', applied: 2 })
    expect(await statusOf(server, open.id)).toBe('approved')
    expect(await statusOf(server, vague.id)).toBe('rejected')
    expect(await readOutbox(reviewer.engine.db)).toEqual([])
    expect(await readRow(reviewer.engine.db, 'topics', vague.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Too vague',
      sync: { pending: false },
    })
    await waitForStatus(reviewer.engine, (s) => s.pendingCount === 0 && s.online)

    // Two mentees apply offline.
    const applicationIds: string[] = []
    for (const mentee of [first, second]) {
      const { engine, network } = createEngine(server, mentee)
      await startSynced(engine, rows(['topics', open.id, (t) => t.status === 'approved']))
      network.offline = true
      const { applicationId } = await engine.mutate.applyToTopic(open.id)
      expect(await readRow(engine.db, 'applications', applicationId)).toMatchObject({
        status: 'pending',
        sync: { pending: true, awaitingConfirmation: true, created: true },
      })
      expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
      network.offline = false
      expect(await flushSettled(engine)).toMatchObject({ outcome: 'synced', applied: 1 })
      // The pending row became the server's row, with the server's id.
      const [mine] = await readApplicationsOfTopic(engine.db, open.id)
      expect(mine).toMatchObject({ status: 'pending', sync: { pending: false } })
      expect(mine?.id).not.toBe(applicationId)
      applicationIds.push(mine?.id as string)
    }

    // The mentor decides offline.
    const [a, b] = applicationIds as [string, string]
    const { engine, network } = createEngine(server, mentor)
    await startSynced(engine, rows(['applications', a], ['applications', b]))
    network.offline = true
    await engine.mutate.acceptApplication(a)
    await engine.mutate.rejectApplication(b, 'Not this round')
    expect((await readRow(engine.db, 'topics', open.id))?.currentMentees).toBe(1)
    expect(await applicationStatus(a)).toMatchObject({ status: 'pending' })
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    network.offline = false
    expect(await flushSettled(engine)).toMatchObject({ outcome: 'synced', applied: 2, rejected: 0 })
    expect(await applicationStatus(a)).toEqual({ status: 'accepted', rejection_reason: null })
    expect(await applicationStatus(b)).toEqual({
      status: 'rejected',
      rejection_reason: 'Not this round',
    })
    expect(await readRow(engine.db, 'topics', open.id)).toMatchObject({
      currentMentees: 1,
      sync: { pending: false },
    })
    expect(
      (await readApplicationsOfTopic(engine.db, open.id)).map((x) => [x.id, x.status]).sort(),
    ).toEqual(
      [
        [a, 'accepted'],
        [b, 'rejected'],
      ].sort(),
    )
  })

  it('creates a topic offline under its own id and keeps it through the sync', async () => {
    const mentor = await server.signIn(unique('creator'))
    const { engine, network } = createEngine(server, mentor)
    await startSynced(engine, rows(['users', mentor.user?.id ?? '']))
    network.offline = true
    const { topicId } = await engine.mutate.createTopic({
      subject: 'Written offline',
      maxMentees: 1,
      seniorityRequired: ['mid'],
      interests: ['Offline-first'],
    })
    await engine.mutate.editTopic(topicId, {
      subject: 'Written offline, edited',
      maxMentees: 2,
      seniorityRequired: ['mid'],
    })
    expect(await readRow(engine.db, 'topics', topicId)).toMatchObject({
      subject: 'Written offline, edited',
      sync: { created: true, pending: true },
    })
    expect(await engine.flush()).toMatchObject({ outcome: 'offline' })
    network.offline = false
    expect(await flushSettled(engine)).toMatchObject({ outcome: 'synced', applied: 2 })
    expect(await readRow(engine.db, 'topics', topicId)).toMatchObject({
      subject: 'Written offline, edited',
      maxMentees: 2,
      status: 'proposed',
      sync: { created: false, pending: false },
    })
    expect((await readTable(engine.db, 'interests')).map((i) => i.name)).toContain('Offline-first')
  })
})

describe('delta pulls', () => {
  it('moves one row after one change', async () => {
    const mentor = await server.signIn(unique('delta-mentor'))
    const reader = await server.signIn(unique('delta-reader'))
    const topic = await approvedTopic(admin, mentor)
    const { engine } = createEngine(server, reader)
    const first = await startSynced(
      engine,
      rows(['topics', topic.id, (t) => t.status === 'approved']),
    )
    expect(first.outcome === 'synced' && first.pulled.changed).toBeGreaterThan(2)

    const res = await mentor.patch(`/api/topics/${topic.id}`, {
      subject: 'Renamed',
      maxMentees: 2,
      seniorityRequired: ['junior'],
    })
    expect(res.status, res.text).toBe(200)
    // A transaction open elsewhere in the cluster may hold the change back a pass: pull until seen.
    let moved = 0
    for (let i = 0; i < 50; i++) {
      const result = await engine.flush()
      if (result.outcome !== 'synced') throw new Error(result.error)
      moved += result.pulled.changed + result.pulled.removed
      if ((await readRow(engine.db, 'topics', topic.id))?.subject === 'Renamed') break
    }
    expect((await readRow(engine.db, 'topics', topic.id))?.subject).toBe('Renamed')
    expect(moved).toBe(1)
  })
})

describe('suspending before a reload', () => {
  it('sends nothing more, keeps the local data readable, and leaves new writes queued', async () => {
    const mentee = await server.signIn(unique('suspend-mentee'))
    const mentor = await server.signIn(unique('suspend-mentor'))
    const topic = await approvedTopic(admin, mentor)
    const { engine, network } = createEngine(server, mentee)
    await startSynced(engine, rows(['topics', topic.id, (t) => t.status === 'approved']))

    await engine.suspend()
    const sentBefore = network.sent.length
    await engine.mutate.applyToTopic(topic.id)
    engine.poke()
    await new Promise((resolve) => setTimeout(resolve, 200))

    expect(network.sent.length).toBe(sentBefore)
    expect(await readRow(engine.db, 'topics', topic.id)).toMatchObject({ id: topic.id })
    expect(await readOutbox(engine.db)).toHaveLength(1)
    const { body } = await mentor.get(`/api/topics/${topic.id}/applications`)
    expect(body).toEqual([])
  })
})
