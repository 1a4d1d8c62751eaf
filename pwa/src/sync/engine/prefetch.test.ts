import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, signInAdmin, unique } from '../../../../sync-server/test/api.ts'
import {
  type Client,
  startTestServer,
  type TestServer,
} from '../../../../sync-server/test/server.ts'
import {
  createEngine,
  holdSyncLock,
  rows,
  stopEngines,
  TestNetwork,
  waitUntil,
  waitUntilAllSent,
} from '../testing/harness.ts'
import type { SyncEngine } from './engine.ts'
import type { Connectivity } from './environment.ts'
import { OTHER_USER_DETAIL } from './flush-context.ts'
import { memoryLock } from './lock.ts'
import { readPreferences, readRow } from './view.ts'

// A first sync asks for its first pull page while the database is created
// (issue 14: the first cards within 1 s of a fresh profile).

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, unique('prefetch-admin'))
})
afterEach(stopEngines)
afterAll(() => server?.stop())

/** A member and a mentor's approved topic; the sync lock held by "another tab" until released. */
async function memberWithLockHeld() {
  const mentor = await server.signIn(unique('prefetch-mentor'))
  const member = await server.signIn(unique('prefetch-member'))
  const topic = await approvedTopic(admin, mentor)
  const lock = memoryLock()
  const { release } = holdSyncLock(lock, member.user?.id ?? '')
  return { member, topic, lock, release }
}

const requests = (sent: { method: string; path: string }[]) =>
  sent.map((s) => `${s.method} ${s.path}`)

/** The topic ids of each first page the engine showed before writing it (null: let go). */
function watchEarlyPage(engine: SyncEngine): (string[] | null)[] {
  const seen: (string[] | null)[] = []
  engine.earlyPage.subscribe(() => {
    seen.push(engine.earlyPage.get()?.changes.topics.map((t) => t.id) ?? null)
  })
  return seen
}

describe('a new database', () => {
  it('asks for its first pull page before the flush has the lock, and writes that answer', async () => {
    const { member, topic, lock, release } = await memberWithLockHeld()
    const { engine, network } = createEngine(server, member, { lock, prefetchFirstPage: true })
    const started = engine.start()

    // The flush waits for the lock; the first page and the identity check are on their way.
    await waitUntil(async () => network.sent.length > 1)
    expect(requests(network.sent)).toEqual(['GET /api/sync/pull', 'GET /api/user'])
    expect(network.sent[0]?.query.get('cursor')).toBeNull()

    await release()
    expect(await started).toMatchObject({ outcome: 'synced' })
    expect(await rows(['topics', topic.id])(engine.db)).toBe(true)
    // The answers asked for early are the ones used: nothing more was sent.
    expect(requests(network.sent)).toEqual(['GET /api/sync/pull', 'GET /api/user'])
  })

  it('shows its first page before writing it, and lets it go once the first sync has ended', async () => {
    const { member, topic, lock, release } = await memberWithLockHeld()
    const { engine, clock } = createEngine(server, member, { lock, prefetchFirstPage: true })
    const seen = watchEarlyPage(engine)
    const started = engine.start()

    // The flush still waits for the lock: the page is shown, and nothing of it is stored yet.
    await waitUntil(async () => engine.earlyPage.get() !== null)
    expect(engine.earlyPage.get()?.changes.topics.map((t) => t.id)).toContain(topic.id)
    expect(await rows(['topics', topic.id])(engine.db)).toBe(false)

    await release()
    expect(await started).toMatchObject({ outcome: 'synced' })
    expect(await rows(['topics', topic.id])(engine.db)).toBe(true)
    // Kept a moment after the sync (the screens read the stored rows meanwhile), then let go.
    clock.advance(1_900)
    expect(engine.earlyPage.get()).not.toBeNull()
    clock.advance(100)
    expect(engine.earlyPage.get()).toBeNull()
    expect(seen).toHaveLength(2)
    expect(seen[0]).toContain(topic.id)
    expect(seen[1]).toBeNull()
  })

  it('holds a change made from its shown first page until that page is written', async () => {
    const { member, topic, lock, release } = await memberWithLockHeld()
    const { engine, network } = createEngine(server, member, { lock, prefetchFirstPage: true })
    const started = engine.start()
    await waitUntil(async () => engine.earlyPage.get() !== null)

    // Applied from a card drawn from the page: nothing is stored yet to check it against.
    let settled = false
    const applying = engine.mutate.applyToTopic(topic.id)
    void applying.then(
      () => {
        settled = true
      },
      () => {
        settled = true
      },
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(settled).toBe(false)

    await release()
    await expect(applying).resolves.toMatchObject({ mutationId: expect.any(String) })
    expect(await started).toMatchObject({ outcome: 'synced' })
    await waitUntilAllSent(engine)
    expect(network.pushed.map((m) => m.path)).toEqual([`/api/topics/${topic.id}/apply`])
  })

  it('writes its first page when the device goes offline before the flush begins', async () => {
    const { member, topic, lock, release } = await memberWithLockHeld()
    const network = new TestNetwork(member)
    // Online while the first page and the identity are asked for, offline from then on.
    const connectivity: Connectivity = {
      isOnline: () => network.sent.length < 2,
      subscribe: () => () => {},
    }
    const { engine } = createEngine(server, member, {
      network,
      lock,
      connectivity,
      prefetchFirstPage: true,
    })
    const started = engine.start()
    await waitUntil(async () => engine.earlyPage.get() !== null)

    await release()
    await started
    // What was on screen is stored: its topics open offline, and a change made from it is checked.
    expect(await rows(['topics', topic.id])(engine.db)).toBe(true)
    expect(engine.status.get().online).toBe(false)
  })

  it('lets its shown first page go at once when sync stops', async () => {
    const { member, lock, release } = await memberWithLockHeld()
    const { engine } = createEngine(server, member, { lock, prefetchFirstPage: true })
    const started = engine.start()
    await waitUntil(async () => engine.earlyPage.get() !== null)
    await engine.stop()
    expect(engine.earlyPage.get()).toBeNull()
    await release()
    expect((await started).outcome).toBe('stopped')
  })

  it('drops it when a change waits to be pushed, and pulls from nothing after the push', async () => {
    const { member, topic, lock, release } = await memberWithLockHeld()
    const { engine, network } = createEngine(server, member, { lock, prefetchFirstPage: true })
    // The first page from nothing is answered only once the change below is queued.
    let letPageGo = () => {}
    const pageHeld = new Promise<void>((resolve) => {
      letPageGo = resolve
    })
    network.intercept = async (sent, forward) => {
      if (sent.path !== '/api/sync/pull' || sent.query.get('cursor') !== null) return undefined
      const response = await forward()
      await pageHeld
      return response
    }
    const seen = watchEarlyPage(engine)
    const started = engine.start()
    await waitUntil(async () => network.sent.length > 1)
    // Queued while the first flush still waits for the lock (as the app's time zone report is).
    await engine.mutate.savePreferences({ timeZone: 'Europe/Zurich' })
    letPageGo()
    await waitUntil(async () => engine.earlyPage.get() !== null)

    await release()
    expect(await started).toMatchObject({ outcome: 'synced' })
    // The page asked for before the change was not used: it is not shown from then on.
    expect(seen).toEqual([expect.arrayContaining([topic.id]), null])
    expect(engine.earlyPage.get()).toBeNull()
    await waitUntilAllSent(engine)
    expect(await rows(['topics', topic.id])(engine.db)).toBe(true)
    expect(await readPreferences(engine.db)).toMatchObject({ timeZone: 'Europe/Zurich' })
    // The prefetched page (asked for before the write) was not used: the flush pushed, then
    // checked the identity again and pulled from the beginning.
    const firstFlush = requests(network.sent).slice(0, 5)
    expect(firstFlush).toEqual([
      'GET /api/sync/pull',
      'GET /api/user',
      'POST /api/sync/push',
      'GET /api/user',
      'GET /api/sync/pull',
    ])
    expect(network.sent[4]?.query.get('cursor')).toBeNull()
  })

  it('is not asked for when the database exists: nothing goes out before the flush has the lock', async () => {
    const { member, topic, lock, release } = await memberWithLockHeld()
    const first = createEngine(server, member, { prefetchFirstPage: true })
    expect(await first.engine.start()).toMatchObject({ outcome: 'synced' })
    expect(await rows(['topics', topic.id])(first.engine.db)).toBe(true)
    await first.engine.stop()

    const again = createEngine(server, member, { lock, prefetchFirstPage: true })
    expect(again.engine.db.name).toBe(first.engine.db.name)
    const started = again.engine.start()
    await again.engine.opened
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(again.network.sent).toEqual([])
    await release()
    expect(await started).toMatchObject({ outcome: 'synced' })
    expect(requests(again.network.sent)).toEqual(['GET /api/sync/pull'])
    expect(again.network.sent[0]?.query.get('cursor')).not.toBeNull()
  })

  it('writes nothing when the browser is signed in as someone else, and shows nothing', async () => {
    const { member, topic, lock, release } = await memberWithLockHeld()
    const other = await server.signIn(unique('prefetch-other'))
    // The engine is the member's; the session cookie is another person's (signed in in another tab).
    const network = new TestNetwork(other)
    let answered = 0
    network.intercept = async (_sent, forward) => {
      const response = await forward()
      answered += 1
      return response
    }
    const { engine } = createEngine(server, member, { network, lock, prefetchFirstPage: true })
    const seen = watchEarlyPage(engine)
    const started = engine.start()
    // Both early answers are in while the flush waits for the lock: the page is not shown.
    await waitUntil(async () => answered === 2)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(seen).toEqual([])
    await release()
    const result = await started
    expect(result).toMatchObject({ outcome: 'needs-sign-in', error: OTHER_USER_DETAIL })
    expect(requests(network.sent)).toEqual(['GET /api/sync/pull', 'GET /api/user'])
    expect(await readRow(engine.db, 'topics', topic.id)).toBeUndefined()
    expect(seen).toEqual([])
  })

  it('stops at once with its first page still on the way', async () => {
    const { member, lock, release } = await memberWithLockHeld()
    const { engine, network } = createEngine(server, member, { lock, prefetchFirstPage: true })
    network.hang = /^\/api\/sync\/pull$/
    const started = engine.start()
    await waitUntil(async () => network.sent.length > 0)
    await engine.stop()
    await release()
    expect((await started).outcome).toBe('stopped')
    expect(await readRow(engine.db, 'topics', 'none').catch(() => undefined)).toBeUndefined()
  })
})
