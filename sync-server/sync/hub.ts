import type { Actor } from '../../shared/decision.ts'
import { onCommit } from '../db/commits.ts'
import type { Sql } from '../db/connect.ts'
import { listenInSession } from '../db/session-notify.ts'
import { type CoalesceOptions, Coalescer } from './coalesce.ts'
import { hasChanges } from './pull.ts'
import { type Bounds, readBounds } from './watermark.ts'

/** The channel the triggers of sql/0003_sync.sql notify on. */
const SYNC_CHANNEL = 'pairwise_sync'

export type HubOptions = CoalesceOptions & {
  /**
   * How often to look at the watermark: on the embedded database, for
   * changes while clients listen; on PostgreSQL, while changes are held back.
   */
  pollMs: number
}

export const DEFAULT_HUB_OPTIONS: HubOptions = {
  coalesceMs: 150,
  maxCoalesceMs: 2_000,
  pollMs: 250,
}

type Subscriber = {
  viewer: Actor
  /** Pokes at once after a quiet period, then once per (growing) window. */
  pokes: Coalescer
  /** Poll mode: the watermark up to which this client was told. */
  watermark: string
}

/** Who a trigger's notification is for (sql/0003_sync.sql, sync_poke). */
type Audience = { all?: boolean; u?: string[]; a?: boolean }

/**
 * Changes that were announced while an older transaction was still running:
 * a pull may hold them back (pull.ts serves transaction ids below the oldest
 * running one), so their audience is poked again once every transaction
 * below `until` has finished.
 */
type Held = { audience: Audience; until: bigint }

/** Beyond this many held-back notifications, they become one for everyone. */
const MAX_HELD = 256

const EVERYONE: Audience = { all: true }

/**
 * Fans database changes out to the event streams of one server process.
 *
 * On PostgreSQL it LISTENs on one connection: the triggers NOTIFY on commit,
 * naming who may see the change, so a write on any instance pokes the
 * clients of every instance, and never before the data is there. Embedded
 * PGlite serves every client connection from one backend, so a NOTIFY reaches
 * only the connection that committed: there the hub polls instead, while
 * anyone listens, and asks the pull itself whether each client has something
 * new (one process is the only one using an embedded database).
 */
export class SyncHub {
  private readonly subscribers = new Set<Subscriber>()
  private mode: Promise<'listen' | 'poll'> | undefined
  private polls = false
  /** Embedded, listening in its one session: whether that LISTEN still holds. */
  private sessionCheck: (() => Promise<boolean>) | undefined
  private pollTimer: ReturnType<typeof setInterval> | undefined
  private polling = false
  /** Poll mode: a commit was announced while a poll ran; look again once it ends. */
  private pollAgain = false
  private lastPolled: string | undefined
  private listening = false
  /** Listen mode: notifications received and not yet looked at against the watermark. */
  private arrivals: Audience[] = []
  private held: Held[] = []
  private checking: Promise<void> | undefined
  private heldTimer: ReturnType<typeof setInterval> | undefined

  constructor(
    private readonly sql: Sql,
    private readonly options: HubOptions = DEFAULT_HUB_OPTIONS,
  ) {}

  /**
   * Calls `poke` (coalesced) whenever something `viewer` may see changes, from
   * now on. Answers the function that stops it.
   */
  async subscribe(viewer: Actor, poke: () => void): Promise<() => void> {
    const mode = await this.start()
    const subscriber: Subscriber = {
      viewer,
      pokes: new Coalescer(poke, this.options),
      watermark: mode === 'poll' ? await this.xmin() : '0',
    }
    this.subscribers.add(subscriber)
    if (mode === 'poll' || this.sessionCheck) this.startPolling()
    return () => {
      subscriber.pokes.stop()
      this.subscribers.delete(subscriber)
      if (this.subscribers.size === 0) {
        this.stopPolling()
        // Nobody left to poke; whoever subscribes next pulls first anyway.
        this.held = []
        this.arrivals = []
        this.stopHeldTimer()
      }
    }
  }

  /** For tests and diagnostics: open streams, running timers, held-back notifications. */
  stats() {
    let timers = (this.pollTimer ? 1 : 0) + (this.heldTimer ? 1 : 0)
    for (const s of this.subscribers) if (s.pokes.waiting) timers += 1
    return {
      subscribers: this.subscribers.size,
      timers,
      listening: this.listening,
      held: this.held.length,
    }
  }

  /**
   * For tests: nothing that has reached the hub can still poke anyone (no
   * coalescing window open, no poll or watermark check running, nothing held).
   */
  quiet(): boolean {
    for (const s of this.subscribers) if (s.pokes.holding) return false
    return !this.polling && !this.checking && this.arrivals.length === 0 && this.held.length === 0
  }

  private start(): Promise<'listen' | 'poll'> {
    this.mode ??= this.detectMode().catch((error: unknown) => {
      this.mode = undefined
      throw error
    })
    return this.mode
  }

  private async detectMode(): Promise<'listen' | 'poll'> {
    const [row] = await this.sql<{ version: string }[]>`SELECT version()`
    if (row?.version.includes('PGlite')) {
      try {
        // The hub lives as long as its pool (hubFor): the listener is never removed.
        this.sessionCheck = await listenInSession(this.sql, SYNC_CHANNEL, (payload) =>
          this.deliver(payload),
        )
      } catch (error) {
        console.warn('Sync LISTEN failed, polling:', error instanceof Error ? error.message : error)
      }
      if (this.sessionCheck) {
        this.listening = true
        return 'listen'
      }
      onCommit(this.sql, () => this.committed())
      this.polls = true
      return 'poll'
    }
    let listenedBefore = false
    await this.sql.listen(
      SYNC_CHANNEL,
      (payload) => this.deliver(payload),
      () => {
        // After a lost connection postgres.js listens again; what happened meanwhile is unknown.
        if (listenedBefore) this.arrive(EVERYONE)
        listenedBefore = true
      },
    )
    this.listening = true
    return 'listen'
  }

  private deliver(payload: string): void {
    let audience: Audience
    try {
      audience = JSON.parse(payload) as Audience
    } catch {
      return
    }
    this.arrive(audience)
  }

  /**
   * A transaction that changed what `audience` sees has committed. Its
   * pokes go out once the hub has looked at the watermark (checkHeld): a
   * pull started after that look serves the change unless an older
   * transaction was still running then, and such a change is held and
   * poked again once the watermark has passed it.
   */
  private arrive(audience: Audience): void {
    if (this.subscribers.size === 0) return
    this.arrivals.push(audience)
    void this.checkHeld()
  }

  /** Pokes every subscriber `audience` names. */
  private pokeAudience(audience: Audience): void {
    const users = new Set(audience.u ?? [])
    for (const s of this.subscribers) {
      if (audience.all || users.has(s.viewer.id) || (audience.a && s.viewer.isAdmin)) {
        this.schedule(s)
      }
    }
  }

  /**
   * Looks at the watermark once for everything that arrived meanwhile (one
   * query at a time, however many notifications come in): pokes the
   * arrivals, keeps those an older running transaction may hold back, and
   * pokes again the held ones the watermark has now passed.
   *
   * A committed transaction T's id is below `pg_snapshot_xmax` of any
   * snapshot taken after its notification arrived. When that snapshot's
   * xmin equals its xmax nothing is running below it, so T is inside the
   * window of every pull that starts from now on. Otherwise T may be at or
   * above xmin, a pull would hold it back, and the one poke at commit would
   * be the last: it is held until xmin reaches that xmax (every transaction
   * below it, T included, has finished), then its audience is poked again.
   */
  private checkHeld(): Promise<void> {
    if (this.checking) return this.checking
    if (this.arrivals.length === 0 && this.held.length === 0) return Promise.resolve()
    this.checking = (async () => {
      try {
        while (this.arrivals.length > 0 || this.held.length > 0) {
          const arrived = this.arrivals.splice(0)
          let xmin: bigint
          let xmax: bigint
          try {
            ;({ xmin, xmax } = await this.snapshot())
          } catch (error) {
            console.warn(
              'Sync watermark check failed:',
              error instanceof Error ? error.message : error,
            )
            // Poke anyway; the next check that works pokes these again.
            for (const audience of arrived) {
              this.pokeAudience(audience)
              this.hold(audience, 0n)
            }
            break
          }
          const released = this.held.filter((h) => h.until <= xmin)
          this.held = this.held.filter((h) => h.until > xmin)
          for (const h of released) this.pokeAudience(h.audience)
          for (const audience of arrived) {
            this.pokeAudience(audience)
            if (xmin < xmax) this.hold(audience, xmax)
          }
          if (this.arrivals.length === 0) break
        }
      } finally {
        this.checking = undefined
        if (this.subscribers.size === 0) {
          // Everyone left while the check ran: nobody to poke again.
          this.held = []
          this.arrivals = []
        }
        if (this.held.length > 0) this.startHeldTimer()
        else this.stopHeldTimer()
      }
    })()
    return this.checking
  }

  private hold(audience: Audience, until: bigint): void {
    this.held.push({ audience, until })
    if (this.held.length > MAX_HELD) {
      const last = this.held.reduce((max, h) => (h.until > max ? h.until : max), 0n)
      this.held = [{ audience: EVERYONE, until: last }]
    }
  }

  /** While changes are held back, the watermark is looked at every pollMs. */
  private startHeldTimer(): void {
    if (this.heldTimer) return
    this.heldTimer = setInterval(() => void this.checkHeld(), this.options.pollMs)
    this.heldTimer.unref()
  }

  private stopHeldTimer(): void {
    if (this.heldTimer) clearInterval(this.heldTimer)
    this.heldTimer = undefined
  }

  private snapshot(): Promise<Bounds> {
    return readBounds(this.sql)
  }

  /** Pokes now, or once the subscriber's coalescing window ends (coalesce.ts). */
  private schedule(s: Subscriber): void {
    if (this.subscribers.has(s)) s.pokes.trigger()
  }

  /**
   * A transaction of this process that may have changed synced rows has
   * committed (db/commits.ts). On the embedded database (poll mode) its NOTIFY reaches no
   * listener, so look now instead of at the next poll tick; on PostgreSQL the
   * NOTIFY does the work and this does nothing.
   */
  committed(): void {
    if (!this.polls || this.subscribers.size === 0) return
    void this.poll()
  }

  private async xmin(): Promise<string> {
    return (await readBounds(this.sql)).xmin.toString()
  }

  private startPolling(): void {
    if (this.pollTimer) return
    this.pollTimer = setInterval(() => void this.poll(), this.options.pollMs)
    this.pollTimer.unref()
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer)
    this.pollTimer = undefined
  }

  private async poll(): Promise<void> {
    if (this.sessionCheck) return this.checkSession(this.sessionCheck)
    if (this.polling) {
      this.pollAgain = true
      return
    }
    this.polling = true
    try {
      do {
        this.pollAgain = false
        await this.pollOnce()
      } while (this.pollAgain && this.subscribers.size > 0)
    } catch (error) {
      console.warn('Sync poll failed:', error instanceof Error ? error.message : error)
    } finally {
      this.polling = false
      this.pollAgain = false
    }
  }

  /** Embedded and listening: a LISTEN the session lost is renewed, and everyone is poked. */
  private async checkSession(check: () => Promise<boolean>): Promise<void> {
    if (this.polling) return
    this.polling = true
    try {
      if (!(await check())) this.arrive(EVERYONE)
    } catch (error) {
      console.warn('Sync LISTEN check failed:', error instanceof Error ? error.message : error)
    } finally {
      this.polling = false
    }
  }

  /**
   * Asks the pull whether each client has something new below the current
   * watermark: once per viewer and starting point, however many devices
   * (streams) that person has open.
   */
  private async pollOnce(): Promise<void> {
    const to = await this.xmin()
    if (to === this.lastPolled) return
    this.lastPolled = to
    const answers = new Map<string, boolean>()
    for (const s of [...this.subscribers]) {
      if (BigInt(s.watermark) >= BigInt(to)) continue
      const key = `${s.viewer.id}|${s.viewer.isAdmin}|${s.watermark}`
      let changed = answers.get(key)
      if (changed === undefined) {
        changed = await hasChanges(this.sql, s.viewer, s.watermark, to)
        answers.set(key, changed)
      }
      s.watermark = to
      if (changed) this.schedule(s)
    }
  }
}

const hubs = new WeakMap<Sql, SyncHub>()

/** The one hub of a database pool: one LISTEN connection per server process. */
export function hubFor(sql: Sql, options?: HubOptions): SyncHub {
  let hub = hubs.get(sql)
  if (!hub) {
    hub = new SyncHub(sql, options)
    hubs.set(sql, hub)
  }
  return hub
}
