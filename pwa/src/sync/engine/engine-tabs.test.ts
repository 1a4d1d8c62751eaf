import { forceCloseDatabase } from 'fake-indexeddb'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, signInAdmin, topicCount, unique } from '../../../../sync-server/test/api.ts'
import {
  type Client,
  startTestServer,
  type TestServer,
} from '../../../../sync-server/test/server.ts'
import { expectConsole } from '../../../../test-support/console-guard.ts'
import { fetchEventSource } from '../testing/event-source.ts'
import {
  createEngine,
  flushSettled,
  pullUntil,
  stopEngines,
  waitForStatus,
  waitUntil,
} from '../testing/harness.ts'
import { systemClock } from './clock.ts'
import { memoryLock } from './lock.ts'
import { signOut } from './session.ts'
import { readOutbox, readRow } from './view.ts'

// Several tabs, a closed tab, IndexedDB closed or upgraded under the app,
// signing out, pokes and persistence.

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, unique('tabs-admin'))
})
afterEach(stopEngines)
afterAll(() => server?.stop())

const topicInput = (subject: string) => ({
  subject,
  maxMentees: 1,
  seniorityRequired: ['mid' as const],
})

describe('tabs', () => {
  it('two tabs flush without doubling: each mutation is pushed once', async () => {
    const mentor = await server.signIn(unique('tabs-mentor'))
    const lock = memoryLock()
    const a = createEngine(server, mentor, { lock })
    const b = createEngine(server, mentor, { lock })
    await Promise.all([a.engine.start(), b.engine.start()])
    a.network.offline = true
    b.network.offline = true
    const subjects: string[] = []
    for (let i = 0; i < 6; i++) {
      subjects.push(unique('Tab'))
      const tab = i % 2 === 0 ? a : b
      await tab.engine.mutate.createTopic(topicInput(subjects.at(-1) as string))
    }
    await Promise.all([a.engine.flush(), b.engine.flush()])
    a.network.offline = false
    b.network.offline = false
    const results = await Promise.all([a.engine.flush(), b.engine.flush(), a.engine.flush()])
    expect(results.map((r) => r.outcome)).toEqual(['synced', 'synced', 'synced'])
    await flushSettled(a.engine)

    const pushed = [...a.network.pushed, ...b.network.pushed].map((m) => m.id)
    expect(pushed).toHaveLength(6)
    expect(new Set(pushed).size).toBe(6)
    for (const subject of subjects) expect(await topicCount(server, subject)).toBe(1)
    for (const tab of [a, b]) {
      expect(await readOutbox(tab.engine.db)).toEqual([])
      await waitForStatus(tab.engine, (s) => s.pendingCount === 0)
    }
  })

  it('keeps a change queued in a tab that closed and sends it from the next one', async () => {
    const mentor = await server.signIn(unique('closed-tab'))
    const first = createEngine(server, mentor)
    await first.engine.start()
    first.network.offline = true
    const subject = unique('Survivor')
    await first.engine.mutate.createTopic(topicInput(subject))
    // The tab closes: no flush, no goodbye.
    await first.engine.stop()

    const next = createEngine(server, mentor)
    expect(await next.engine.start()).toMatchObject({ outcome: 'synced', applied: 1 })
    expect(await topicCount(server, subject)).toBe(1)
  })
})

describe('IndexedDB closed under the app', () => {
  it('reopens and re-syncs when the browser closes the connection', async () => {
    const mentor = await server.signIn(unique('forced'))
    const { engine, network } = createEngine(server, mentor)
    await engine.start()
    const topic = await approvedTopic(admin, mentor)
    const pulls = () => network.sent.filter((s) => s.path === '/api/sync/pull').length
    const before = pulls()
    forceCloseDatabase(engine.db.backendDB() as never)
    // Reopened, and synced again without any other trigger.
    await waitUntil(async () => pulls() > before && !engine.status.get().syncing)
    expect(engine.db.isOpen()).toBe(true)
    await pullUntil(
      engine,
      async () => (await readRow(engine.db, 'topics', topic.id)) !== undefined,
    )
    const subject = unique('After close')
    await engine.mutate.createTopic(topicInput(subject))
    expect(await engine.flush()).toMatchObject({ outcome: 'synced' })
    expect(await topicCount(server, subject)).toBe(1)
  })

  it('lets another tab upgrade the database, then reopens it', async () => {
    // Dexie says why it closes the connection: that is what this test makes happen.
    expectConsole('warn', /Another connection wants to upgrade database/)
    const mentor = await server.signIn(unique('upgraded'))
    const { engine } = createEngine(server, mentor)
    await engine.start()
    const version = engine.db.backendDB().version
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(engine.db.name, version + 10)
      request.onsuccess = () => {
        request.result.close()
        resolve()
      }
      request.onerror = () => reject(request.error)
    })
    const subject = unique('After upgrade')
    await engine.mutate.createTopic(topicInput(subject))
    expect(await engine.flush()).toMatchObject({ outcome: 'synced' })
    expect(engine.db.backendDB().version).toBe(version + 10)
    expect(await topicCount(server, subject)).toBe(1)
  })

  it('recovers from a close by app code: writes and flushes go on', async () => {
    const mentor = await server.signIn(unique('closed'))
    const { engine } = createEngine(server, mentor)
    await engine.start()
    engine.db.close()
    const subject = unique('After explicit close')
    await engine.mutate.createTopic(topicInput(subject))
    expect(await engine.flush()).toMatchObject({ outcome: 'synced' })
    expect(await topicCount(server, subject)).toBe(1)
  })
})

describe('signing out', () => {
  it('warns about unsent changes, and deletes the data only when told to', async () => {
    expectConsole('warn', /Another connection wants to delete database/)
    const mentor = await server.signIn(unique('leaving'))
    const lock = memoryLock()
    const tab = createEngine(server, mentor, { lock })
    const other = createEngine(server, mentor, { lock })
    await tab.engine.start()
    await other.engine.start()
    tab.network.offline = true
    other.network.offline = true
    await tab.engine.mutate.createTopic(topicInput(unique('Unsent')))
    expect(await signOut(tab.engine)).toEqual({ signedOut: false, unsent: 1 })
    expect(await tab.engine.unsentCount()).toBe(1)

    expect(await signOut(tab.engine, { discardUnsent: true })).toEqual({
      signedOut: true,
      discarded: 1,
    })
    const names = await indexedDB.databases()
    expect(names.map((d) => d.name)).not.toContain(tab.engine.db.name)
    // The other tab lets go and does not recreate the deleted data.
    await waitForStatus(other.engine, (s) => s.needsSignIn)
    expect(await other.engine.flush()).toMatchObject({ outcome: 'stopped' })
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(tab.engine.db.name)
  })
})

describe('pokes and persistence', () => {
  it('pulls when the server pokes', async () => {
    const mentor = await server.signIn(unique('poked-mentor'))
    const reader = await server.signIn(unique('poked'))
    // Real time here: a pull that finds nothing yet looks again after a second or so.
    const { engine } = createEngine(server, reader, {
      eventSource: fetchEventSource(reader),
      clock: systemClock,
    })
    await engine.start()
    const topic = await approvedTopic(admin, mentor)
    await waitUntil(async () => (await readRow(engine.db, 'topics', topic.id)) !== undefined)
  })

  it('asks the browser once to keep the data', async () => {
    const user = await server.signIn(unique('persist'))
    let asked = 0
    const storage = {
      persisted: async () => false,
      persist: async () => {
        asked += 1
        return true
      },
    }
    const first = createEngine(server, user, { storage })
    await first.engine.start()
    await waitForStatus(first.engine, (s) => s.persisted === true)
    await first.engine.stop()
    const again = createEngine(server, user, { storage })
    await again.engine.start()
    await waitForStatus(again.engine, (s) => s.persisted === false)
    expect(asked).toBe(1)
  })
})
