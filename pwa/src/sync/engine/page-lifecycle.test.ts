import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { unique } from '../../../../sync-server/test/api.ts'
import { startTestServer, type TestServer } from '../../../../sync-server/test/server.ts'
import { createEngine, stopEngines, waitForStatus } from '../testing/harness.ts'
import { databaseName } from './db.ts'
import { chooseDatabaseName, forgetDatabaseNames, type NameStore } from './db-name.ts'
import { memoryLock } from './lock.ts'
import { browserPageLifecycle, type PageEvent, type PageLifecycle } from './page-lifecycle.ts'

// A page WebKit puts into its back/forward cache is frozen with whatever
// IndexedDB work it had under way, and a frozen upgrade blocks every later
// open of the database (decision 0024). On `pagehide` into the cache the
// engine lets go of the database and the sync lock; on `pageshow` out of it
// it opens and syncs again.

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterEach(async () => {
  vi.unstubAllGlobals()
  await stopEngines()
})
afterAll(() => server?.stop())

function manualPage() {
  const listeners = new Set<(event: PageEvent) => void>()
  const page: PageLifecycle = {
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const emit = (event: PageEvent) => {
    for (const listener of listeners) listener(event)
  }
  return { page, emit, listeners }
}

/** localStorage for the database names, in memory. */
function memoryNames(): NameStore & { size: () => number } {
  const items = new Map<string, string>()
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
    size: () => items.size,
  }
}

/** Opens `name` on a connection of its own; answers the version it found (0: not created). */
function rawOpen(name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let found: number | null = null
    const request = indexedDB.open(name)
    request.onupgradeneeded = (event) => {
      found = event.oldVersion
      request.transaction?.abort()
    }
    request.onsuccess = () => {
      request.result.close()
      resolve(found ?? request.result.version)
    }
    request.onerror = () => (found === null ? reject(request.error) : resolve(found))
  })
}

/** Counts `topics` on a connection of its own, as another page would. */
function countTopics(name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name)
    request.onerror = () => reject(request.error)
    request.onsuccess = () => {
      const db = request.result
      const count = db.transaction('topics', 'readonly').objectStore('topics').count()
      count.onsuccess = () => {
        db.close()
        resolve(count.result)
      }
      count.onerror = () => reject(count.error)
    }
  })
}

describe('a page frozen into the back/forward cache', () => {
  it('aborts the creation of its database when frozen during it, so another page can open it', async () => {
    const me = await server.signIn(unique('frozen-upgrade'))
    const { page, emit } = manualPage()
    // The page is hidden the moment the browser first asks it to create the database.
    let frozenOnce = false
    const freezing: IDBFactory = new Proxy(indexedDB, {
      get: (target, property) => {
        if (property !== 'open') return Reflect.get(target, property, target).bind(target)
        return (name: string, version?: number) => {
          const request = target.open(name, version)
          request.addEventListener('upgradeneeded', () => {
            if (frozenOnce) return
            frozenOnce = true
            emit('frozen')
          })
          return request
        }
      },
    })
    const names = memoryNames()
    const { engine, network } = createEngine(server, me, {
      pageLifecycle: page,
      indexedDB: { indexedDB: freezing },
      nameStore: names,
    })

    await expect(engine.start()).rejects.toThrow()
    expect(engine.db.isOpen()).toBe(false)
    // Had the browser held an upgrade this page could not take, the name would be blocked: the
    // next page of this user opens a database of another name (nothing was stored under this one).
    const userId = me.user?.id ?? ''
    expect(engine.db.name).toBe(databaseName(userId))
    expect(chooseDatabaseName(userId, names)).toMatch(new RegExp(`^${databaseName(userId)}-`))
    // Nothing of the frozen page holds the database: it was never created, and opens at once.
    expect(await rawOpen(engine.db.name)).toBe(0)
    expect(network.sent).toEqual([])

    emit('restored')
    await waitForStatus(engine, (s) => s.lastSyncedAt !== null)
    expect(engine.db.isOpen()).toBe(true)
    expect(network.sent.some((s) => s.path === '/api/sync/pull')).toBe(true)
  })

  it('gives up the flush that holds the sync lock, closes the database, and syncs again when shown', async () => {
    const me = await server.signIn(unique('frozen-flush'))
    const { page, emit } = manualPage()
    const lock = memoryLock()
    const names = memoryNames()
    const { engine, network } = createEngine(server, me, {
      pageLifecycle: page,
      lock,
      nameStore: names,
    })
    await engine.start()
    const recoveries = engine.recoveries.get()

    network.hang = /^\/api\/sync\/pull$/
    const flushing = engine.flush()
    await vi.waitFor(() => expect(network.sent.at(-1)?.path).toBe('/api/sync/pull'))

    emit('frozen')
    expect(await flushing).toMatchObject({ outcome: 'stopped' })
    // The lock is free for another page, and the database is closed.
    expect(await lock(`pairwise-sync-${me.user?.id}`, async () => 'granted')).toBe('granted')
    expect(engine.db.isOpen()).toBe(false)
    // The database exists and holds data: it keeps its name.
    expect(names.size()).toBe(0)
    const sentWhileFrozen = network.sent.length
    engine.poke()
    expect(network.sent.length).toBe(sentWhileFrozen)

    network.hang = null
    emit('restored')
    await waitForStatus(engine, (s) => s.lastSyncedAt !== null && !s.syncing)
    expect(engine.db.isOpen()).toBe(true)
    // The screens' reads that the close cut off run again.
    expect(engine.recoveries.get()).toBeGreaterThan(recoveries)
    expect(network.sent.length).toBeGreaterThan(sentWhileFrozen)
    expect(await engine.db.meta.count()).toBeGreaterThan(0)
  })

  it('aborts the transactions under way, so another page reading the database is not kept waiting', async () => {
    const me = await server.signIn(unique('frozen-transaction'))
    const { page, emit } = manualPage()
    const { engine } = createEngine(server, me, { pageLifecycle: page })
    await engine.start()
    // A read-write transaction that stays under way (it keeps issuing requests), as a pull
    // writing a page is for a while.
    const { db } = engine
    const underWay = db.transaction('rw', db.topics, async () => {
      for (;;) await db.topics.get('none')
    })
    underWay.catch(() => {})
    const otherPage = countTopics(db.name)
    const settled = (p: Promise<unknown>) =>
      Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 200))])
    expect(await settled(otherPage)).toBe(false)

    emit('frozen')
    expect(await otherPage).toBe(0)
    await expect(underWay).rejects.toThrow()

    emit('restored')
    await waitForStatus(engine, (s) => s.lastSyncedAt !== null && !s.syncing)
    expect(await db.topics.count()).toBe(0)
  })

  it('stops listening once the engine stops', async () => {
    const me = await server.signIn(unique('frozen-stop'))
    const { page, listeners } = manualPage()
    const { engine } = createEngine(server, me, { pageLifecycle: page })
    await engine.start()
    expect(listeners.size).toBe(1)
    await engine.stop()
    expect(listeners.size).toBe(0)
  })
})

describe('browserPageLifecycle', () => {
  it('reports pagehide and pageshow of the back/forward cache only', () => {
    const window = new EventTarget()
    vi.stubGlobal('window', window)
    const lifecycle = browserPageLifecycle()
    const seen: PageEvent[] = []
    const stop = lifecycle?.subscribe((event) => seen.push(event))
    const transition = (type: string, persisted: boolean) =>
      window.dispatchEvent(Object.assign(new Event(type), { persisted }))

    transition('pagehide', false) // a page torn down: the browser ends its IndexedDB work
    transition('pagehide', true)
    transition('pageshow', false) // a first load
    transition('pageshow', true)
    stop?.()
    transition('pagehide', true)
    expect(seen).toEqual(['frozen', 'restored'])
  })

  it('is absent outside a page', () => {
    expect(browserPageLifecycle()).toBeNull()
  })
})

describe('the name of the database', () => {
  it('is pairwise-<user> until a frozen creation moves it, and a sign-out forgets it and deletes all', async () => {
    const names = memoryNames()
    expect(chooseDatabaseName('u1', names)).toBe('pairwise-u1')
    names.setItem('pairwise.db.u1', 'pairwise-u1-abc')
    expect(chooseDatabaseName('u1', names)).toBe('pairwise-u1-abc')
    expect(chooseDatabaseName('u1', null)).toBe('pairwise-u1')

    const create = (name: string) =>
      new Promise<void>((resolve) => {
        const request = indexedDB.open(name)
        request.onsuccess = () => {
          request.result.close()
          resolve()
        }
      })
    await Promise.all(['pairwise-u1', 'pairwise-u1-abc', 'pairwise-u10'].map(create))
    forgetDatabaseNames('u1', names)
    await vi.waitFor(async () => {
      const left = (await indexedDB.databases()).map((d) => d.name)
      expect(left).toContain('pairwise-u10')
      expect(left).not.toContain('pairwise-u1')
      expect(left).not.toContain('pairwise-u1-abc')
    })
    expect(chooseDatabaseName('u1', names)).toBe('pairwise-u1')
    indexedDB.deleteDatabase('pairwise-u10')
  })
})
