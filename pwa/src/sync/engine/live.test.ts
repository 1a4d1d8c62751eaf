import { liveQuery } from 'dexie'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { approvedTopic, signInAdmin, topicBody, unique } from '../../../../sync-server/test/api.ts'
import {
  type Client,
  startTestServer,
  type TestServer,
} from '../../../../sync-server/test/server.ts'
import {
  createEngine,
  holdSyncLock,
  pullUntil,
  rows,
  startSynced,
  stopEngines,
  waitUntil,
  waitUntilAllSent,
} from '../testing/harness.ts'
import { META } from './db.ts'
import type { SyncEngine } from './engine.ts'
import { memoryLock } from './lock.ts'
import { readOutbox, readRow, readTable } from './view.ts'

// What a poke does on the receiving side (issue 20): a pull at once, written
// in one transaction, waking only the reads whose data changed.

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, unique('live-admin'))
})
afterEach(stopEngines)
afterAll(() => server?.stop())

/** Follows a live read; answers how many results it has delivered so far, and how to stop. */
function follow<T>(read: () => Promise<T>) {
  const seen: T[] = []
  const subscription = liveQuery(read).subscribe({ next: (value) => seen.push(value) })
  return { seen, stop: () => subscription.unsubscribe() }
}

/**
 * A reader synced with one approved topic of a mentor, its engine on a lock
 * another tab can take: `holdLock()` takes it until `release()`.
 */
async function syncedReaderWithLock() {
  const mentor = await server.signIn(unique('live-mentor'))
  const reader = await server.signIn(unique('live-reader'))
  const topic = await approvedTopic(admin, mentor)
  const lock = memoryLock()
  const { engine, network } = createEngine(server, reader, { lock })
  await startSynced(engine, rows(['topics', topic.id]))
  const holdLock = () => holdSyncLock(lock, reader.user?.id ?? '')
  return { mentor, reader, lock, topic, engine, network, holdLock }
}

/** This device's copy of the application to `topicId`. */
async function myApplication(engine: SyncEngine, topicId: string) {
  return (await readTable(engine.db, 'applications')).find((a) => a.topicId === topicId)
}

describe('a poke', () => {
  it('starts the pull at once (time stands still here), and sends nothing else when nothing waits to be pushed', async () => {
    const mentor = await server.signIn(unique('live-mentor'))
    const reader = await server.signIn(unique('live-reader'))
    const topic = await approvedTopic(admin, mentor)
    // The engine's clock never moves: a pull delayed by any timer would never start.
    const { engine, network, clock } = createEngine(server, reader)
    await startSynced(engine, rows(['topics', topic.id]))
    const before = network.sent.length

    expect(
      (await mentor.patch(`/api/topics/${topic.id}`, topicBody({ subject: 'Live' }))).status,
    ).toBe(200)
    engine.poke()
    await waitUntil(async () => (await readRow(engine.db, 'topics', topic.id))?.subject === 'Live')
    expect(network.sent.slice(before).map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /api/sync/pull',
    ])
    expect(clock.pending).toBe(0)
  })

  it('wakes the reads of the tables that changed, once per pull, and not the others', async () => {
    const mentor = await server.signIn(unique('live-mentor'))
    const mentee = await server.signIn(unique('live-mentee'))
    const topic = await approvedTopic(admin, mentor)
    const { engine } = createEngine(server, mentor)
    await startSynced(engine, rows(['topics', topic.id]))

    const applications = follow(() => readTable(engine.db, 'applications'))
    const notifications = follow(() => readTable(engine.db, 'notifications'))
    const users = follow(() => readTable(engine.db, 'users'))
    try {
      await waitUntil(
        async () =>
          applications.seen.length === 1 &&
          notifications.seen.length === 1 &&
          users.seen.length === 1,
      )
      // One pull brings the application and the mentor's notification of it, in one transaction.
      expect((await mentee.post(`/api/topics/${topic.id}/apply`)).status).toBe(201)
      engine.poke()
      await waitUntil(async () => applications.seen.length === 2 && notifications.seen.length === 2)
      expect(applications.seen.at(-1)?.map((a) => a.topicId)).toEqual([topic.id])
      expect(notifications.seen.at(-1)?.map((n) => n.kind)).toContain('new_application')
      // A read the pull did not touch was not woken (the mentee was known already: first sync).
      expect(await engine.flush()).toMatchObject({ outcome: 'synced' })
      expect(applications.seen).toHaveLength(2)
      expect(notifications.seen).toHaveLength(2)
      expect(users.seen).toHaveLength(1)
    } finally {
      applications.stop()
      notifications.stop()
      users.stop()
    }
  })

  it('asks for its pull while the flush still waits for the sync lock, and uses it', async () => {
    const { mentor, topic, engine, network, holdLock } = await syncedReaderWithLock()
    const before = network.sent.length
    expect(
      (await mentor.patch(`/api/topics/${topic.id}`, topicBody({ subject: 'Early' }))).status,
    ).toBe(200)

    // Another tab holds the sync lock: the pull is on its way all the same.
    const other = holdLock()
    engine.poke()
    await waitUntil(async () => network.sent.length > before)
    expect((await readRow(engine.db, 'topics', topic.id))?.subject).not.toBe('Early')
    await other.release()
    await waitUntil(async () => (await readRow(engine.db, 'topics', topic.id))?.subject === 'Early')
    // The answer asked for early is the one written: one pull, not two.
    expect(network.sent.slice(before).map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /api/sync/pull',
    ])
  })

  it('writes its pull in the one transaction that also reads where the device stands', async () => {
    const { mentor, topic, engine, network } = await syncedReaderWithLock()
    // The flushes' transactions: the read of where the device stands (meta and outbox, nothing
    // else) and the pull's writes (read-write over meta).
    const opened: string[] = []
    const { db } = engine
    const transaction = db.transaction.bind(db) as (...args: unknown[]) => unknown
    vi.spyOn(db, 'transaction').mockImplementation(((...args: unknown[]) => {
      const names = args
        .slice(1, -1)
        .flat()
        .map((t) => (typeof t === 'string' ? t : (t as { name: string }).name))
        .sort()
        .join()
      if (args[0] === 'rw' && names.split(',').includes('meta')) opened.push('write')
      if (args[0] === 'r' && names === 'meta,outbox') opened.push('read where it stands')
      return transaction(...args)
    }) as typeof db.transaction)
    const before = network.sent.length
    expect(
      (await mentor.patch(`/api/topics/${topic.id}`, topicBody({ subject: 'One round' }))).status,
    ).toBe(200)

    engine.poke()
    await waitUntil(
      async () => (await readRow(engine.db, 'topics', topic.id))?.subject === 'One round',
    )
    await engine.flush()
    // The poke's flush: one read-write transaction (no read of where it stands before it);
    // the flush after it, with no early pull, reads first as before.
    expect(opened).toEqual(['write', 'read where it stands', 'write'])
    expect(network.sent.slice(before).map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /api/sync/pull',
      'GET /api/sync/pull',
    ])
  })

  it('writes nothing of its early pull when another tab pulled meanwhile, and pulls from there', async () => {
    const { mentor, reader, topic, engine, network, holdLock } = await syncedReaderWithLock()
    const before = network.sent.length
    const from = (await engine.db.meta.get(META.cursor))?.value as string
    expect(
      (await mentor.patch(`/api/topics/${topic.id}`, topicBody({ subject: 'Elsewhere' }))).status,
    ).toBe(200)

    const other = holdLock()
    engine.poke()
    await waitUntil(async () => network.sent.length > before)
    // The other tab pulls past the change while it holds the lock (its rows left out here, so
    // that a page written from the old cursor would show).
    const past = await reader.get(`/api/sync/pull?cursor=${encodeURIComponent(from)}`)
    const moved = (past.body as { cursor: string }).cursor
    expect(moved).not.toBe(from)
    await engine.db.meta.put({ key: META.cursor, value: moved })
    await other.release()
    await waitUntil(async () => network.sent.length === before + 2)
    await waitUntilAllSent(engine)

    // The early page (from the old cursor) was not written; the pull went on from the new one.
    expect((await readRow(engine.db, 'topics', topic.id))?.subject).not.toBe('Elsewhere')
    expect(network.sent.slice(before).map((s) => s.query.get('cursor'))).toEqual([from, moved])
  })

  it('drops the early pull when a change waits to be pushed, and pulls after the push', async () => {
    const { topic, engine, network, holdLock } = await syncedReaderWithLock()
    const before = network.sent.length

    const other = holdLock()
    engine.poke()
    await waitUntil(async () => network.sent.length > before)
    // Queued after the early pull was asked for, while the flush still waits for the lock.
    await engine.mutate.applyToTopic(topic.id)
    await other.release()
    // The application arrives, and every flush has ended (the apply's own came after).
    await waitUntilAllSent(engine)
    expect(await myApplication(engine, topic.id)).toMatchObject({
      status: 'pending',
      sync: { pending: false },
    })
    // The early pull was dropped: the poke's flush pushed, then pulled anew; the apply's own
    // flush, which waited behind it, pulled once more.
    expect(network.sent.slice(before).map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /api/sync/pull',
      'POST /api/sync/push',
      'GET /api/sync/pull',
      'GET /api/sync/pull',
    ])
  })
})

describe('a change made here', () => {
  const applications = async (topicId: string, menteeId: string) => {
    const [row] = await server.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM applications WHERE topic_id = ${topicId} AND mentee_id = ${menteeId}`
    return row?.n ?? 0
  }

  it('goes out as its transaction commits, before the flush has the sync lock, and applies once', async () => {
    const { topic, engine, network, holdLock } = await syncedReaderWithLock()
    const before = network.sent.length
    const me = engine.userId

    // Another tab holds the sync lock: the change is sent all the same, and applied.
    const other = holdLock()
    await engine.mutate.applyToTopic(topic.id)
    await waitUntil(async () => network.sent.length > before)
    await waitUntil(async () => (await applications(topic.id, me)) === 1)
    expect((await readOutbox(engine.db)).map((r) => r.status)).toEqual(['sent'])
    // The flush records its answer under the lock, and pulls what it did.
    await other.release()
    await waitUntilAllSent(engine)
    expect(await myApplication(engine, topic.id)).toMatchObject({
      status: 'pending',
      sync: { pending: false },
    })
    expect(network.sent.slice(before).map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /api/sync/push',
      'GET /api/sync/pull',
    ])
    expect(await applications(topic.id, me)).toBe(1)
  })

  it('waits its turn behind a change another tab has not sent yet: the two go out in order', async () => {
    const { mentor, reader, lock, topic, engine, network } = await syncedReaderWithLock()
    const second = await approvedTopic(admin, mentor)
    const tab = createEngine(server, reader, { lock })
    await startSynced(tab.engine, rows(['topics', second.id]))
    await pullUntil(engine, () => rows(['topics', second.id])(engine.db))
    const before = network.sent.length

    // The other tab is offline: its change waits in the outbox both tabs share. This tab
    // is idle and online, but does not send its own change ahead of it.
    tab.network.offline = true
    await tab.engine.mutate.applyToTopic(topic.id)
    await engine.mutate.applyToTopic(second.id)
    await waitUntilAllSent(engine)
    const pushes = network.sent.slice(before).filter((s) => s.path === '/api/sync/push')
    expect(pushes).toHaveLength(1)
    expect(
      (pushes[0]?.body as { mutations: { path: string }[] } | undefined)?.mutations.map(
        (m) => m.path,
      ),
    ).toEqual([`/api/topics/${topic.id}/apply`, `/api/topics/${second.id}/apply`])
    expect(await applications(topic.id, engine.userId)).toBe(1)
    expect(await applications(second.id, engine.userId)).toBe(1)
  })
})
