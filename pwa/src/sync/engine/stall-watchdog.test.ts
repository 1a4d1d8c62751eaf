import { afterEach, describe, expect, it } from 'vitest'
import type { ClientEvent } from '../../../../shared/client-events.ts'
import { systemClock } from './clock.ts'
import { createSyncDb, type SyncDb } from './db.ts'
import { memoryLock } from './lock.ts'
import { browserEngineOf, StallWatchdog } from './stall-watchdog.ts'

// The watchdog against IndexedDB (fake-indexeddb): a connection whose
// transaction never completes, as WebKit leaves one, is detected, replaced
// by a fresh one, and reported.

const dbs: SyncDb[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.delete()
})

let counter = 0
async function openDb(): Promise<SyncDb> {
  counter += 1
  const db = createSyncDb(`watchdog-${counter}`)
  dbs.push(db)
  await db.open()
  return db
}

/**
 * A read-write transaction on `topics` that stays active on the current
 * connection (it keeps issuing requests) until that connection is closed:
 * every read of `topics` waits behind it meanwhile.
 */
function wedge(db: SyncDb): void {
  const idb = db.backendDB()
  let closed = false
  const close = idb.close.bind(idb)
  idb.close = () => {
    closed = true
    close()
  }
  const store = idb.transaction('topics', 'readwrite').objectStore('topics')
  const spin = () => {
    if (!closed) store.get('none').onsuccess = spin
  }
  spin()
}

function watch(db: SyncDb) {
  const reports: ClientEvent[] = []
  let recoveries = 0
  const watchdog = new StallWatchdog({
    db,
    clock: systemClock,
    engine: 'webkit',
    report: (event) => reports.push(event),
    onRecovered: () => {
      recoveries += 1
    },
    idbStallMs: 300,
  })
  return { watchdog, reports, recoveries: () => recoveries }
}

describe('StallWatchdog', () => {
  it('leaves a database that answers alone and reports nothing', async () => {
    const db = await openDb()
    const { watchdog, reports, recoveries } = watch(db)
    expect(await watchdog.check('topics-count')).toBe('ok')
    expect(reports).toEqual([])
    expect(recoveries()).toBe(0)
  })

  it('reopens a stuck connection, after which reads answer, and reports it once', async () => {
    const db = await openDb()
    wedge(db)
    const stuckRead = db.topics.count()
    const { watchdog, reports, recoveries } = watch(db)
    const [first, second] = await Promise.all([
      watchdog.check('topics-count'),
      watchdog.check('screen-read'),
    ])
    expect([first, second]).toEqual(['recovered', 'recovered'])
    expect(recoveries()).toBe(1)
    expect(reports).toEqual([
      {
        kind: 'indexeddb-stalled',
        operation: 'topics-count',
        waitedMs: expect.any(Number),
        recovered: true,
        engine: 'webkit',
      },
    ])
    expect(reports[0]?.waitedMs).toBeGreaterThanOrEqual(300)
    expect(await db.topics.count()).toBe(0)
    // What waited on the old connection settles too (without the reopen it never would).
    const settled = () => 'settled'
    expect(await stuckRead.then(settled, settled)).toBe('settled')
  })

  it('cancels an open that never answers, opens on a new request, and reports it', async () => {
    counter += 1
    let opens = 0
    // The first open request never answers, as WebKit has left one.
    const hangsOnce: IDBFactory = new Proxy(indexedDB, {
      get: (target, property) => {
        if (property !== 'open') return Reflect.get(target, property, target).bind(target)
        return (name: string, version?: number) => {
          opens += 1
          return opens === 1 ? ({} as IDBOpenDBRequest) : target.open(name, version)
        }
      },
    })
    const db = createSyncDb(`watchdog-${counter}`, { indexedDB: hangsOnce })
    dbs.push(db)
    const { watchdog, reports } = watch(db)
    await watchdog.open()
    expect(db.isOpen()).toBe(true)
    expect(opens).toBe(2)
    expect(await db.topics.count()).toBe(0)
    expect(reports).toEqual([
      {
        kind: 'indexeddb-stalled',
        operation: 'open',
        waitedMs: expect.any(Number),
        recovered: true,
        engine: 'webkit',
      },
    ])
  })

  it('opens a database that answers without a report', async () => {
    counter += 1
    const db = createSyncDb(`watchdog-${counter}`)
    dbs.push(db)
    const { watchdog, reports } = watch(db)
    await watchdog.open()
    expect(db.isOpen()).toBe(true)
    expect(reports).toEqual([])
  })

  it('reports a sync lock held past its limit, once it is granted', async () => {
    const db = await openDb()
    const { watchdog, reports } = watch(db)
    const shared = memoryLock()
    const lock = watchdog.watchLock(shared, 200)
    let release = () => {}
    const holder = shared('pairwise-sync-u', () => new Promise<void>((r) => (release = r)))
    const waiter = lock('pairwise-sync-u', async () => 'flushed')
    setTimeout(() => release(), 500)
    expect(await waiter).toBe('flushed')
    await holder
    expect(reports).toEqual([
      {
        kind: 'sync-lock-stalled',
        operation: 'flush-lock',
        waitedMs: expect.any(Number),
        recovered: true,
        engine: 'webkit',
      },
    ])
  })
})

describe('browserEngineOf', () => {
  it('tells WebKit (every iPhone browser), Gecko and Blink apart', () => {
    const iphoneChrome =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0 Mobile/15E148 Safari/604.1'
    expect(browserEngineOf(iphoneChrome)).toBe('webkit')
    expect(
      browserEngineOf('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'),
    ).toBe('gecko')
    expect(
      browserEngineOf(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      ),
    ).toBe('blink')
    expect(browserEngineOf('curl/8.0')).toBe('other')
  })
})
