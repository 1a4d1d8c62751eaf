import { bindMutations, type Mutations } from '../mutators/mutations.ts'
import { createSyncDb, getMeta, META, type RejectedRow, type SyncDb, setMeta } from './db.ts'
import {
  browserNameStore,
  chooseDatabaseName,
  moveOffBlockedName,
  type NameStore,
} from './db-name.ts'
import { EarlyPageStore } from './early-page.ts'
import { EVENT_SOURCE_CLOSED, type EventSourceLike } from './environment.ts'
import { holdsFirstPageEarly } from './first-page-early.ts'
import { Flusher, type FlushResult } from './flusher.ts'
import { type ResolvedOptions, resolveOptions, type SyncEngineOptions } from './options.ts'
import { browserPageLifecycle, FreezableIndexedDb, type PageLifecycle } from './page-lifecycle.ts'
import { reportClientEvent } from './report.ts'
import {
  browserEngineOf,
  RecoveryCount,
  type StallOutcome,
  StallWatchdog,
} from './stall-watchdog.ts'
import { observeDbStatus, StatusStore } from './status.ts'

export type { FlushResult } from './flusher.ts'
export type { SyncEngineOptions } from './options.ts'

/**
 * The longest a change made from a new device's first page, shown before it
 * is written, waits for it to be written (early-page.ts).
 */
const EARLY_PAGE_WAIT_MS = 3_000

/**
 * The sync client of one signed-in user: its database, its writes
 * (`mutate`), its status, and the flushes that push and pull, on start, on
 * `online`, on a poke and after each write; one tab at a time; backing off
 * with jitter; under a watchdog; reopening IndexedDB when it is closed under
 * the app.
 *
 * @example
 * const engine = new SyncEngine({ user })
 * await engine.start()
 * await engine.mutate.applyToTopic(topicId)
 */
export class SyncEngine {
  readonly db: SyncDb
  readonly mutate: Mutations
  readonly status = new StatusStore()
  /** A new device's first pull page, shown before it is written (early-page.ts). */
  readonly earlyPage = new EarlyPageStore()
  /** Bumped when the watchdog reopened a stuck IndexedDB: live queries subscribe again. */
  readonly recoveries = new RecoveryCount()
  /** Settles once start() has opened the database (or failed to). */
  readonly opened: Promise<void>
  private settleOpened: () => void = () => {}
  private readonly watchdog: StallWatchdog
  private readonly o: ResolvedOptions
  private readonly flusher: Flusher
  private stopped = false
  /** stop() was called: nothing starts again. */
  private ended = false
  /** Hidden into the back/forward cache (see page-lifecycle.ts). */
  private frozen = false
  private freezeCount = 0
  private readonly page: PageLifecycle | null
  private readonly freezable: FreezableIndexedDb | null
  private unwatchPage: (() => void) | null = null
  private readonly names: NameStore | null
  private readonly factory: IDBFactory | undefined
  /** start() is opening the database. */
  private opening = false
  /** Whether the database existed on this device when start() began to open it (null: not known). */
  private existedBefore: boolean | null = null
  private deleted = false
  private reopening = false
  private events: EventSourceLike | null = null
  private stopObserving: (() => void) | null = null
  private readonly cleanups: (() => void)[] = []
  private readonly rejectedListeners = new Set<(row: RejectedRow) => void>()

  constructor(options: SyncEngineOptions) {
    const resolved = resolveOptions(options)
    this.opened = new Promise((resolve) => {
      this.settleOpened = resolve
    })
    this.page = options.pageLifecycle === undefined ? browserPageLifecycle() : options.pageLifecycle
    const factory = options.indexedDB?.indexedDB ?? globalThis.indexedDB
    this.factory = factory
    this.names = options.nameStore === undefined ? browserNameStore() : options.nameStore
    this.freezable = this.page && factory ? new FreezableIndexedDb(factory) : null
    this.db = createSyncDb(
      options.dbName ?? chooseDatabaseName(options.user.id, this.names),
      this.freezable
        ? { ...options.indexedDB, indexedDB: this.freezable.factory }
        : options.indexedDB,
    )
    this.watchdog = new StallWatchdog({
      db: this.db,
      clock: resolved.clock,
      engine: browserEngineOf(globalThis.navigator?.userAgent ?? ''),
      report: (event) => reportClientEvent(resolved, event),
      onRecovered: () => {
        this.flusher.abandonCurrent()
        this.observe()
        this.recoveries.bump()
        if (!this.stopped) void this.flush()
      },
    })
    this.o = { ...resolved, lock: this.watchdog.watchLock(resolved.lock) }
    this.flusher = new Flusher({
      db: this.db,
      options: this.o,
      status: this.status,
      earlyPage: this.earlyPage,
      isActive: () => !this.stopped && !this.deleted,
      onRejected: (row) => {
        for (const listener of this.rejectedListeners) listener(row)
      },
      onSynced: () => {
        if (!this.stopObserving) this.observe()
        this.openEvents()
      },
      onSignInNeeded: () => {
        this.events?.close()
        this.events = null
      },
      onDatabaseClosed: () => this.reopenSoon(),
    })
    this.mutate = bindMutations({
      db: this.db,
      me: options.user,
      now: () => this.o.clock.now(),
      newId: this.o.newId,
      onQueued: (_row, sending) => {
        if (!this.stopped) void this.flusher.flush(sending)
      },
      sendsAtOnce: () => !this.stopped && this.flusher.canSendAtOnce(),
      settled: () => this.earlyPage.settled(this.o.clock, EARLY_PAGE_WAIT_MS),
    })
    this.db.on('close', () => this.reopenSoon())
    this.db.on('versionchange', (event: IDBVersionChangeEvent) => {
      // Deleted by a sign-out in another tab: this data is gone, do not recreate it.
      if (!event.newVersion) {
        this.deleted = true
        this.db.close({ disableAutoOpen: true })
        this.status.update({ needsSignIn: true })
      }
    })
  }

  get userId(): string {
    return this.o.user.id
  }

  /** Opens the database, follows the status, listens for pokes and connectivity, and syncs. */
  async start(): Promise<FlushResult> {
    // Before the open: a page hidden while its database is being created must let go of it.
    this.unwatchPage ??=
      this.page?.subscribe((event) => (event === 'frozen' ? this.freeze() : void this.thaw())) ??
      null
    this.noteWhetherItExists()
    this.opening = true
    try {
      await this.watchdog.open()
    } catch (error) {
      // stop() closed the database while it was opening (a page left at once): that is
      // a stop, as it is once the flush runs, not a failure.
      if (!this.ended) throw error
      return { outcome: 'stopped', error: error instanceof Error ? error.message : String(error) }
    } finally {
      this.opening = false
      this.settleOpened()
    }
    return this.follow()
  }

  /** With the database open: follow the status, connectivity and pokes, and sync. */
  private follow(): Promise<FlushResult> {
    this.observe()
    const c = this.o.connectivity
    if (c) {
      this.status.update({ online: c.isOnline() })
      this.cleanups.push(
        c.subscribe((event) => {
          if (event === 'offline') {
            // Nothing to hear while offline; the flush on `online` opens it again.
            this.events?.close()
            this.events = null
            return this.status.update({ online: false })
          }
          void this.flush()
        }),
      )
    }
    void this.requestPersistence()
    this.openEvents()
    return this.flush()
  }

  /** Stops syncing and closes the database; a running flush is abandoned (it resumes next time). */
  async stop(): Promise<void> {
    this.ended = true
    this.unwatchPage?.()
    this.unwatchPage = null
    await this.suspend()
    this.earlyPage.clear()
    this.stopObserving?.()
    this.db.close()
  }

  /**
   * Stops talking to the server (no more pushes, pulls or event stream) but
   * keeps the local data open for the screens: for a page about to reload.
   * What is written meanwhile waits in the outbox for the next start.
   */
  async suspend(): Promise<void> {
    this.halt()
    await this.flusher.stop()
  }

  private halt(): void {
    this.stopped = true
    for (const cleanup of this.cleanups.splice(0)) cleanup()
    this.events?.close()
    this.events = null
  }

  /**
   * The page goes into the back/forward cache: no sync, no event stream, the
   * flush that holds the sync lock given up (so the lock is let go), the
   * database closed and every transaction still under way aborted; an open
   * still under way is cancelled, which aborts its upgrade. Frozen like
   * this, the page holds nothing another page waits for.
   */
  private freeze(): void {
    if (this.frozen) return
    this.frozen = true
    this.freezeCount += 1
    // Frozen while creating the database: the browser may already hold an upgrade this page can no
    // longer take or undo, so the next page uses another name (nothing was stored under this one).
    if (this.opening && this.existedBefore === false && this.names) {
      moveOffBlockedName(this.o.user.id, this.db.name, this.names)
    }
    this.halt()
    void this.flusher.stop()
    this.stopObserving?.()
    this.stopObserving = null
    this.db.close()
    // What was under way is aborted: a pull's page is pulled again, a screen's read runs again on
    // `restored`, and a change being written at that very moment fails (and says so) rather than
    // freezing the database for everyone.
    this.freezable?.freeze()
  }

  /** How many times the page was frozen: a read begun before a freeze may have been aborted by it. */
  get freezes(): number {
    return this.freezeCount
  }

  /**
   * Asks the browser, before the open, whether the database exists yet (for
   * freeze()). A new one is a first sync: its first pull page is asked for
   * at once, while the database is created (Flusher.prefetchFirstPage).
   */
  private noteWhetherItExists(): void {
    this.existedBefore = null
    // The session check found this person new to the device and asked for their first page
    // (first-page-early.ts): it is taken and shown now, not once the browser has said whether
    // the database exists (on a new profile that answer came 100-400 ms after the page). Had
    // the database existed after all, the first flush lets the page go (it pulls from its cursor).
    if (this.o.prefetchFirstPage && holdsFirstPageEarly(this.o.user.id)) {
      this.flusher.prefetchFirstPage()
    }
    const name = this.db.name
    void this.factory
      ?.databases?.()
      .then((all) => {
        this.existedBefore = all.some((d) => d.name === name)
        if (!this.existedBefore && this.o.prefetchFirstPage) this.flusher.prefetchFirstPage()
      })
      .catch(() => {})
  }

  /** Shown again from the back/forward cache: open, follow, re-run the screens' reads, sync. */
  private async thaw(): Promise<void> {
    if (!this.frozen) return
    this.frozen = false
    this.freezable?.thaw()
    if (this.ended || this.deleted) return
    this.stopped = false
    try {
      await this.db.open()
    } catch {
      // A flush on the closed database reopens it (onDatabaseClosed).
      return this.flusher.retryLater()
    }
    this.recoveries.bump()
    void this.follow()
  }

  /**
   * Pushes and pulls now. While a flush runs, callers share the one that
   * follows it, which sees every write queued meanwhile.
   */
  flush(): Promise<FlushResult> {
    return this.flusher.flush()
  }

  /**
   * A read the screen waits for has not answered for a while: probe
   * IndexedDB and, if it is stuck, reopen it (see StallWatchdog).
   */
  checkStall(operation: string): Promise<StallOutcome> {
    return this.watchdog.check(operation)
  }

  /** Something changed on the server (an event, a push message): pull. */
  poke(): void {
    this.flusher.poke()
  }

  /** After signing in again: the queue waits no more. */
  async signedIn(): Promise<FlushResult> {
    await setMeta(this.db, META.needsSignIn, false)
    this.status.update({ needsSignIn: false })
    this.flusher.resetBackoff()
    this.openEvents()
    return this.flush()
  }

  /** Listens for refused changes (to toast them); answers how to stop. */
  onRejected(listener: (row: RejectedRow) => void): () => void {
    this.rejectedListeners.add(listener)
    return () => this.rejectedListeners.delete(listener)
  }

  /** Removes refused changes from the list (all of them without ids). */
  async dismissRejected(...ids: string[]): Promise<void> {
    if (ids.length === 0) await this.db.rejected.clear()
    else await this.db.rejected.bulkDelete(ids)
  }

  /** Changes not yet known to be saved: sign-out warns about these. */
  unsentCount(): Promise<number> {
    return this.db.outbox.where('status').anyOf('queued', 'sent').count()
  }

  /** Follows the status the database keeps (any tab's writes). */
  private observe(): void {
    this.stopObserving?.()
    this.stopObserving = observeDbStatus(
      this.db,
      (s) => this.status.update(this.deleted ? { ...s, needsSignIn: true } : s),
      () => {
        // The database went away under the query: follow again once it is back.
        this.stopObserving = null
      },
    )
  }

  /** IndexedDB closed under the app (browser, another tab's upgrade): reopen, follow, re-sync. */
  private reopenSoon(): void {
    if (this.reopening) return
    this.reopening = true
    // After the close event's other handlers (a deletion marks the engine first).
    void Promise.resolve().then(async () => {
      try {
        if (this.stopped || this.deleted) return
        if (!this.db.isOpen()) await this.db.open()
        this.observe()
        this.recoveries.bump()
        void this.flush()
      } catch {
        this.flusher.retryLater()
      } finally {
        this.reopening = false
      }
    })
  }

  private openEvents(): void {
    const factory = this.o.eventSource
    const open = this.events && this.events.readyState !== EVENT_SOURCE_CLOSED
    if (!factory || this.stopped || this.deleted || open) return
    // Offline, the browser would only fail to connect (and log it): wait for `online`.
    if (this.o.connectivity && !this.o.connectivity.isOnline()) return
    this.events?.close()
    const events = factory(`${this.o.baseUrl}/api/sync/events`)
    events.addEventListener('poke', () => this.poke())
    // Connected again: pokes may have been missed meanwhile.
    events.addEventListener('ready', () => this.poke())
    this.events = events
  }

  /** Asks the browser once per database to keep it (not to evict it under storage pressure). */
  private async requestPersistence(): Promise<void> {
    const storage = this.o.storage
    if (!storage?.persist) return
    try {
      let persisted = (await storage.persisted?.()) ?? false
      if (!persisted && !(await getMeta<boolean>(this.db, 'persistRequested'))) {
        await setMeta(this.db, 'persistRequested', true)
        persisted = await storage.persist()
      }
      this.status.update({ persisted })
    } catch {
      this.status.update({ persisted: false })
    }
  }
}
