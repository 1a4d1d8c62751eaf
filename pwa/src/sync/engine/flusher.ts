import { PULL_LIMIT_DEFAULT, PUSH_MAX_MUTATIONS } from '../../../../shared/sync.ts'
import { type Answer, type HttpOptions, NoAnswer, request } from '../../lib/http.ts'
import { backoffDelay } from './backoff.ts'
import { META, type OutboxRow, type RejectedRow, type SyncDb, setMeta } from './db.ts'
import type { EarlyPageStore } from './early-page.ts'
import { takeFirstPageEarly } from './first-page-early.ts'
import type { FlushContext, Sizes } from './flush-context.ts'
import { readFlushStart } from './flush-start.ts'
import type { ResolvedOptions } from './options.ts'
import { parsePage, pullPath } from './page.ts'
import { NotAsPlanned, type PullStats, pullToEnd } from './pull.ts'
import { type EarlyPush, pushBody, pushOutbox } from './push.ts'
import { Abandoned, NeedsSignIn, RetryLater, Run } from './run.ts'
import type { StatusStore } from './status.ts'

/** A pull page asked for before the flush knew where it stands; `drop` cancels it. */
type EarlyPull = {
  cursor: string | undefined
  answer: Promise<Answer>
  /** GET /api/user asked for with it (a first sync's), for the identity check. */
  identity?: Promise<Answer>
  drop?: () => void
}

export type FlushResult =
  | { outcome: 'synced'; pushed: number; applied: number; rejected: number; pulled: PullStats }
  | {
      outcome: 'offline' | 'retry' | 'needs-sign-in' | 'abandoned' | 'stopped' | 'error'
      error: string
    }

/**
 * How long a new device's first page stays shown from memory after the first
 * sync that wrote it has ended: the screens' reads of the written rows have
 * answered by then.
 */
const EARLY_PAGE_KEPT_MS = 2_000

/** After a poke whose pull brought nothing: look again after these delays. */
const POKE_ECHO_MS = [1_000, 4_000]

/**
 * An answer asked for outside `run`, awaited in it: given up with the run,
 * progress when answered. Its failure is seen where it is awaited; never
 * unhandled when it is dropped.
 */
function inRun(run: Run, asked: Promise<Answer>): Promise<Answer> {
  const answer = run.guard(asked).then((a) => {
    run.progress()
    return a
  })
  answer.catch(() => {})
  return answer
}

const isDbClosed = (error: unknown) =>
  error instanceof Error && ['DatabaseClosedError', 'InvalidStateError'].includes(error.name)

/** What the flusher needs of the engine around it. */
export type FlusherHost = {
  db: SyncDb
  options: ResolvedOptions
  status: StatusStore
  /** Where a new device's first page is shown before it is written. */
  earlyPage: EarlyPageStore
  /** False once stopped, or once the database was deleted. */
  isActive: () => boolean
  onRejected: (row: RejectedRow) => void
  onSynced: () => void
  onSignInNeeded: () => void
  onDatabaseClosed: () => void
}

/**
 * Runs flushes (push, then pull to the end) one after another, each under
 * the cross-tab lock and a watchdog; plans the retries (backoff with
 * jitter) and the follow-up pulls. Never throws: a flush answers what became
 * of it.
 */
export class Flusher {
  private running: Promise<FlushResult> | null = null
  private rerun: Promise<FlushResult> | null = null
  private current: Run | null = null
  private timer: unknown = null
  private echoTimer: unknown = null
  private echoes = 0
  private failures = 0
  private catchUps = 0
  private readonly sizes: Sizes = { push: PUSH_MAX_MUTATIONS, pull: PULL_LIMIT_DEFAULT }
  /** Where this tab's last pull ended, as far as it knows (another tab may have pulled since). */
  private lastCursor: string | undefined
  /** This device's client id, once a flush has read or made it (a push names it). */
  private clientId: string | undefined
  /** The flush that took the prefetched first page has ended: it is not shown from then on. */
  private earlyPageOver = false
  /** A poke came in since the last flush began: its flush may ask for the pull at once. */
  private poked = false
  /** A new database's first pull page, asked for while the database is created (see prefetchFirstPage). */
  private prefetched: {
    answer: Promise<Answer>
    identity: Promise<Answer>
    abort: AbortController
  } | null = null

  constructor(private readonly host: FlusherHost) {}

  /**
   * Pushes and pulls now. While a flush runs, callers share the one that
   * follows it, which sees every write queued meanwhile.
   */
  flush(sending?: OutboxRow): Promise<FlushResult> {
    if (!this.running) return this.startRun(sending)
    // `sending` waits for the next flush, which sends it as it sends any change marked sent.
    this.rerun ??= this.running.then(() => {
      this.rerun = null
      return this.startRun()
    })
    return this.rerun
  }

  /**
   * Something changed on the server: pull. A pull that brings nothing looks
   * again a little later (POKE_ECHO_MS): the server holds a change back while
   * an older transaction in the cluster is open, and pokes only once.
   */
  poke(): void {
    this.host.options.clock.clearTimeout(this.echoTimer)
    this.echoes = 0
    this.poked = true
    this.pokeFlush()
  }

  /**
   * Whether a change queued now can be pushed at once (see EarlyPush): no
   * flush runs in this tab (it would send the change a second time), the
   * last one did not fail (its retry sends it), the device is online and a
   * flush has made its client id.
   */
  canSendAtOnce(): boolean {
    const { connectivity } = this.host.options
    if (connectivity && !connectivity.isOnline()) return false
    return (
      !this.running && this.failures === 0 && this.clientId !== undefined && this.host.isActive()
    )
  }

  /** Retries start from the shortest delay again (signed in again, say). */
  resetBackoff(): void {
    this.failures = 0
  }

  /**
   * The database is new on this device (a first sync): the first pull page is
   * asked for now, while the database is created and the first flush waits
   * for the sync lock and reads where it stands, which takes a few hundred
   * milliseconds on a phone (issue 14: the first cards within 1 s), and with
   * it the identity check a pull from nothing needs (GET /api/user). The first
   * flush uses them when it starts from nothing and has nothing to push; else
   * they are dropped. Both only read.
   */
  prefetchFirstPage(): void {
    const { options } = this.host
    // A flush already under way asks for its own pages.
    if (this.prefetched || this.running || !this.host.isActive()) return
    if (options.connectivity && !options.connectivity.isOnline()) return
    const path = pullPath(undefined, this.sizes.pull)
    // Asked for already, as the session check named this user (first-page-early.ts)?
    const early = takeFirstPageEarly(options.user.id, path)
    const abort = early?.abort ?? new AbortController()
    const answer = early?.answer ?? request(this.http(), 'GET', path, undefined, abort.signal)
    const identity =
      early?.identity ?? request(this.http(), 'GET', '/api/user', undefined, abort.signal)
    // Their failure is seen where they are awaited; never unhandled when they are dropped.
    answer.catch(() => {})
    identity.catch(() => {})
    this.prefetched = { answer, identity, abort }
    // Dropped (the flush had something to push, say) or given up: its rows are not shown.
    abort.signal.addEventListener('abort', () => this.host.earlyPage.clear(), { once: true })
    void Promise.all([answer, identity])
      .then(([page, who]) => this.showEarly(page, who, abort.signal))
      .catch(() => {})
  }

  /**
   * Shows a new device's first page before it is written (early-page.ts),
   * once GET /api/user has named this user: a page of someone else's session
   * is never shown (the flush refuses it too, checkIdentity).
   */
  private showEarly(page: Answer, who: Answer, signal: AbortSignal): void {
    if (signal.aborted || this.earlyPageOver || !this.host.isActive()) return
    if (page.status !== 200 || who.status !== 200) return
    if ((who.body as { id?: unknown } | null)?.id !== this.host.options.user.id) return
    const parsed = parsePage(page.body)
    if (parsed) this.host.earlyPage.show(parsed)
  }

  /** Plans nothing more and gives up the running flush; resolves once it has ended. */
  async stop(): Promise<void> {
    const { clock } = this.host.options
    clock.clearTimeout(this.timer)
    clock.clearTimeout(this.echoTimer)
    this.prefetched?.abort.abort()
    this.prefetched = null
    this.current?.abandon()
    await this.running
    await this.rerun
  }

  /** Gives up the running flush (it held the lock on a stuck IndexedDB); later flushes still run. */
  abandonCurrent(): void {
    this.current?.abandon()
  }

  /** Retries after the next backoff delay. */
  retryLater(): void {
    const { random, backoff } = this.host.options
    this.schedule(backoffDelay(this.failures++, random, backoff))
  }

  private pokeFlush(): void {
    if (!this.host.isActive()) return
    void this.flush().then((result) => {
      const delay = POKE_ECHO_MS[this.echoes]
      if (result.outcome !== 'synced' || delay === undefined) return
      if (result.pulled.changed + result.pulled.removed > 0) return
      this.echoes += 1
      const { clock } = this.host.options
      clock.clearTimeout(this.echoTimer)
      this.echoTimer = clock.setTimeout(() => this.pokeFlush(), delay)
    })
  }

  private startRun(sending?: OutboxRow): Promise<FlushResult> {
    const run: Promise<FlushResult> = this.runOnce(sending).finally(() => {
      if (this.running === run) this.running = null
    })
    this.running = run
    return run
  }

  private async runOnce(sending?: OutboxRow): Promise<FlushResult> {
    const { db, options, status } = this.host
    if (!this.host.isActive()) return { outcome: 'stopped', error: 'Sync is stopped.' }
    this.unschedule()
    // Offline, nothing can be sent or fetched; but a new device's first page, answered before
    // the network went, is still written (its cards may be on screen already: early-page.ts).
    if (options.connectivity && !options.connectivity.isOnline() && !this.prefetched) {
      status.update({ online: false })
      return { outcome: 'offline', error: 'The browser is offline.' }
    }
    const run = new Run(options.clock, options.watchdogMs)
    this.current = run
    status.update({ syncing: true })
    // Before the lock and the reads below: the change goes out as the click's transaction commits.
    const pushed = sending ? this.pushEarly(run, sending) : undefined
    const prefetched = this.takePrefetched(run)
    const early = prefetched ?? (this.poked ? this.askEarly(run) : undefined)
    this.poked = false
    try {
      if (!db.isOpen()) await run.guard(db.open())
      const lockName = `pairwise-sync-${options.user.id}`
      const result = await run.guard(
        options.lock(lockName, () => run.guard(this.work(run, early, pushed)), run.signal),
      )
      if (result.outcome === 'needs-sign-in') {
        status.update({ needsSignIn: true })
        return result
      }
      this.succeeded(result.pulled.waiting)
      return result
    } catch (error) {
      return this.failed(error)
    } finally {
      run.dispose()
      if (this.current === run) this.current = null
      status.update({ syncing: false })
      if (prefetched) this.letEarlyPageGo()
    }
  }

  /** The first sync that took a new device's first page has ended: its rows are stored (or not). */
  private letEarlyPageGo(): void {
    this.earlyPageOver = true
    const { earlyPage, options } = this.host
    options.clock.setTimeout(() => earlyPage.clear(), EARLY_PAGE_KEPT_MS)
  }

  private http(): HttpOptions {
    const { options } = this.host
    return {
      fetch: options.fetch,
      baseUrl: options.baseUrl,
      clock: options.clock,
      timeoutMs: options.requestTimeoutMs,
    }
  }

  /**
   * A poke's pull, asked for from the last cursor this tab knows at once,
   * while the flush waits for the lock: its page is written when nothing is
   * to be pushed and the stored cursor is that one, which the page's own write
   * transaction checks (no read transaction before it), else dropped (issue
   * 20). A pull only reads.
   */
  private askEarly(run: Run): EarlyPull | undefined {
    const cursor = this.lastCursor
    if (cursor === undefined) return undefined
    const path = pullPath(cursor, this.sizes.pull)
    return { cursor, answer: inRun(run, request(this.http(), 'GET', path, undefined, run.signal)) }
  }

  /** Pushes `row` now, marked sent when it was queued; the flush records the answer (EarlyPush). */
  private pushEarly(run: Run, row: OutboxRow): EarlyPush | undefined {
    const clientId = this.clientId
    if (clientId === undefined) return undefined
    const body = pushBody({ clientId, userId: this.host.options.user.id }, [row])
    return {
      row,
      answer: inRun(run, request(this.http(), 'POST', '/api/sync/push', body, run.signal)),
    }
  }

  /** The prefetched first page, taken once by the first flush: in its run from here on. */
  private takePrefetched(run: Run): EarlyPull | undefined {
    const prefetched = this.prefetched
    if (!prefetched) return undefined
    this.prefetched = null
    run.signal.addEventListener('abort', () => prefetched.abort.abort(), { once: true })
    return {
      cursor: undefined,
      answer: inRun(run, prefetched.answer),
      identity: inRun(run, prefetched.identity),
      drop: () => prefetched.abort.abort(),
    }
  }

  private async work(
    run: Run,
    asked: EarlyPull | undefined,
    pushed: EarlyPush | undefined,
  ): Promise<
    Extract<FlushResult, { outcome: 'synced' }> | { outcome: 'needs-sign-in'; error: string }
  > {
    const { db } = this.host
    let early = asked
    // A poke's pull, asked for from where this tab last stood, with nothing of its own to send:
    // written without a read of where the device stands first; its transaction checks that.
    const clientId = this.clientId
    if (early && early.cursor !== undefined && !pushed && clientId !== undefined) {
      const ctx = this.context(run, clientId)
      try {
        const pulled = await pullToEnd(ctx, [], {
          cursor: early.cursor,
          first: early,
          planned: { clientId },
        })
        this.lastCursor = pulled.cursor
        return { outcome: 'synced', pushed: 0, applied: 0, rejected: 0, pulled }
      } catch (error) {
        if (!(error instanceof NotAsPlanned)) throw error
        early = undefined
      }
    }
    const start = await readFlushStart(db)
    // Signed out by an earlier answer: nothing is sent until the person signs in again.
    if (start.needsSignIn) {
      early?.drop?.()
      return { outcome: 'needs-sign-in', error: 'Sign in again to sync.' }
    }
    const ctx = this.context(run, start.clientId ?? (await this.newClientId()))
    this.clientId = ctx.clientId
    // Nothing to push (a poke, usually): straight to the pull, with what was read above.
    const pushes =
      start.unsent > 0 ? await pushOutbox(ctx, pushed) : { pushed: 0, applied: 0, rejected: [] }
    run.check()
    const applied =
      start.unsent > 0
        ? await db.outbox.where('status').equals('applied').primaryKeys()
        : start.applied
    // Only pulls write the cursor, and this one holds the sync lock: the cursor read is current.
    // The early pull (a poke's, or a new database's first page) counts only if it asked from
    // there and nothing was pushed since.
    const first = early && start.unsent === 0 && early.cursor === start.cursor ? early : undefined
    if (early && !first) early.drop?.()
    if (first?.identity) ctx.identity = first.identity
    const pulled = await pullToEnd(ctx, applied, { cursor: start.cursor, first })
    this.lastCursor = pulled.cursor
    return {
      outcome: 'synced',
      pushed: pushes.pushed,
      applied: pushes.applied,
      rejected: pushes.rejected.length,
      pulled,
    }
  }

  private context(run: Run, clientId: string): FlushContext {
    const { db, options } = this.host
    return {
      db,
      http: this.http(),
      run,
      now: () => options.clock.now(),
      clientId,
      userId: options.user.id,
      identityChecked: false,
      onRejected: this.host.onRejected,
      sizes: this.sizes,
      pageWriter: options.pageWriter,
      onPageWritten: () => this.host.earlyPage.markWritten(),
    }
  }

  private succeeded(waiting: number): void {
    this.failures = 0
    // Sizes cut down after timeouts grow back, one flush at a time.
    this.sizes.push = Math.min(PUSH_MAX_MUTATIONS, this.sizes.push * 2)
    this.sizes.pull = Math.min(PULL_LIMIT_DEFAULT, this.sizes.pull * 2)
    // Online, unless the browser says otherwise (a first page answered before it went: runOnce).
    const { connectivity } = this.host.options
    this.host.status.update({ online: !connectivity || connectivity.isOnline(), lastError: null })
    this.host.onSynced()
    // Applied changes whose effect no pull has shown yet: look again soon.
    const { random, backoff } = this.host.options
    if (waiting > 0) this.schedule(backoffDelay(this.catchUps++, random, backoff))
    else this.catchUps = 0
  }

  private async failed(error: unknown): Promise<FlushResult> {
    const { db, status } = this.host
    const message = error instanceof Error ? error.message : String(error)
    if (!this.host.isActive()) return { outcome: 'stopped', error: message }
    if (error instanceof NeedsSignIn) {
      await setMeta(db, META.needsSignIn, true).catch(() => {})
      status.update({ needsSignIn: true, online: true, lastError: message })
      this.host.onSignInNeeded()
      return { outcome: 'needs-sign-in', error: message }
    }
    this.retryLater()
    if (error instanceof Abandoned) {
      status.update({ lastError: 'Sync took too long and will start again.' })
      return { outcome: 'abandoned', error: message }
    }
    if (error instanceof NoAnswer) {
      status.update({ online: false, lastError: message })
      return { outcome: 'offline', error: message }
    }
    status.update({ online: true, lastError: message })
    if (isDbClosed(error)) this.host.onDatabaseClosed()
    return { outcome: error instanceof RetryLater ? 'retry' : 'error', error: message }
  }

  private schedule(delayMs: number): void {
    const { clock } = this.host.options
    clock.clearTimeout(this.timer)
    this.timer = clock.setTimeout(() => {
      this.timer = null
      this.host.status.update({ retryAt: null })
      void this.flush()
    }, delayMs)
    this.host.status.update({ retryAt: clock.now() + delayMs })
  }

  private unschedule(): void {
    this.host.options.clock.clearTimeout(this.timer)
    this.timer = null
    this.host.status.update({ retryAt: null })
  }

  /** This device's first client id: only a flush, under the sync lock, writes it (none was read). */
  private async newClientId(): Promise<string> {
    const { db, options } = this.host
    const id = options.newId()
    await setMeta(db, META.clientId, id)
    return id
  }
}
