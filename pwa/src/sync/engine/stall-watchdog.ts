import type { BROWSER_ENGINES, ClientEvent } from '../../../../shared/client-events.ts'
import type { Clock } from './clock.ts'
import type { SyncDb } from './db.ts'
import type { SyncLock } from './lock.ts'

/** How long a read-only probe of IndexedDB may take before IndexedDB counts as stuck. */
export const IDB_STALL_MS = 5_000
/** How long waiting for the sync lock may take before the watchdog looks at IndexedDB. */
const LOCK_STALL_MS = 10_000

export type BrowserEngine = (typeof BROWSER_ENGINES)[number]
export type StallOutcome = 'ok' | 'recovered' | 'stuck'

export type StallWatchdogHost = {
  db: SyncDb
  clock: Clock
  engine: BrowserEngine
  report: (event: ClientEvent) => void
  /** IndexedDB answers again on a fresh connection: let go of what waited on the old one. */
  onRecovered: () => void
  idbStallMs?: number
}

/** Whether `work` settles within `ms` (its outcome, settled or failed, does not matter here). */
function settlesWithin(work: Promise<unknown>, ms: number, clock: Clock): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = clock.setTimeout(() => resolve(false), ms)
    const done = () => {
      clock.clearTimeout(timer)
      resolve(true)
    }
    work.then(done, done)
  })
}

/**
 * WebKit can leave IndexedDB blocked under a page (a transaction that never
 * completes; a connection that stops answering) until the page reloads. The
 * watchdog probes with a read-only count; if that does not settle within
 * IDB_STALL_MS it closes the connection, opens a fresh one, probes again,
 * tells the engine (which abandons the flush that held the sync lock and
 * re-runs the screens' queries) and reports the event to the server log.
 * One check at a time: callers during a check share it.
 */
export class StallWatchdog {
  private checking: Promise<StallOutcome> | null = null

  constructor(private readonly host: StallWatchdogHost) {}

  check(operation: string): Promise<StallOutcome> {
    this.checking ??= this.run(operation).finally(() => {
      this.checking = null
    })
    return this.checking
  }

  /** `lock`, watched: a wait past LOCK_STALL_MS checks IndexedDB and is reported once granted or given up. */
  watchLock(lock: SyncLock, stallMs = LOCK_STALL_MS): SyncLock {
    return async (name, fn, signal) => {
      const { clock } = this.host
      const started = clock.now()
      let granted = false
      let stalled = false
      const timer = clock.setTimeout(() => {
        stalled = true
        void this.check('sync-lock')
      }, stallMs)
      try {
        return await lock(
          name,
          () => {
            granted = true
            clock.clearTimeout(timer)
            return fn()
          },
          signal,
        )
      } finally {
        clock.clearTimeout(timer)
        if (stalled) {
          this.host.report({
            kind: 'sync-lock-stalled',
            operation: 'flush-lock',
            waitedMs: Math.max(0, clock.now() - started),
            recovered: granted,
            engine: this.host.engine,
          })
        }
      }
    }
  }

  /**
   * Opens the database. An open that has not answered within IDB_STALL_MS
   * (WebKit has left one hanging) is cancelled and tried once more on a new
   * request, and the event is reported; answers once the database is open.
   */
  async open(): Promise<void> {
    const { db, clock } = this.host
    const ms = this.host.idbStallMs ?? IDB_STALL_MS
    const started = clock.now()
    const first = db.open()
    if (await settlesWithin(first, ms, clock)) {
      await first
      return
    }
    // Cancels the open that hangs (Dexie aborts an upgrade it began); the next open is a new request.
    db.close()
    await first.catch(() => {})
    const second = db.open()
    const recovered = await settlesWithin(second, ms, clock)
    this.host.report({
      kind: 'indexeddb-stalled',
      operation: 'open',
      waitedMs: Math.max(0, clock.now() - started),
      recovered,
      engine: this.host.engine,
    })
    await second
  }

  private async run(operation: string): Promise<StallOutcome> {
    const { db, clock } = this.host
    const ms = this.host.idbStallMs ?? IDB_STALL_MS
    const started = clock.now()
    if (!db.isOpen() || (await settlesWithin(db.topics.count(), ms, clock))) return 'ok'
    // Stuck: a fresh connection. Dexie fails what was pending on the old one.
    db.close({ disableAutoOpen: false })
    const recovered =
      (await settlesWithin(db.open(), ms, clock)) &&
      db.isOpen() &&
      (await settlesWithin(db.topics.count(), ms, clock))
    if (recovered) this.host.onRecovered()
    this.host.report({
      kind: 'indexeddb-stalled',
      operation,
      waitedMs: Math.max(0, clock.now() - started),
      recovered,
      engine: this.host.engine,
    })
    return recovered ? 'recovered' : 'stuck'
  }
}

/** The engine of the browser from its user agent string (only to count stalls by engine). */
export function browserEngineOf(userAgent: string): BrowserEngine {
  if (/Firefox\//.test(userAgent)) return 'gecko'
  if (/Chrom(e|ium)\//.test(userAgent)) return 'blink'
  if (/AppleWebKit\//.test(userAgent)) return 'webkit'
  return 'other'
}

/** Counts recoveries, so live queries stuck on the old connection subscribe again. */
export class RecoveryCount {
  private value = 0
  private readonly listeners = new Set<() => void>()
  readonly get = () => this.value
  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }
  bump(): void {
    this.value += 1
    for (const listener of this.listeners) listener()
  }
}
