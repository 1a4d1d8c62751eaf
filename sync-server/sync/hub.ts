import type { Actor } from '../../shared/decision.ts'
import type { Sql } from '../db/connect.ts'
import { hasChanges } from './pull.ts'

/** The channel the triggers of sql/0003_sync.sql notify on. */
const SYNC_CHANNEL = 'pairwise_sync'

export type HubOptions = {
  /** At most one poke per client in this window; more are sent once it ends. */
  coalesceMs: number
  /**
   * How often to look at the watermark: on the embedded database, for
   * changes while clients listen; on PostgreSQL, while changes are held back.
   */
  pollMs: number
}

export const DEFAULT_HUB_OPTIONS: HubOptions = { coalesceMs: 150, pollMs: 250 }

type Subscriber = {
  viewer: Actor
  poke: () => void
  /** Poll mode: the watermark up to which this client was told. */
  watermark: string
  timer: ReturnType<typeof setTimeout> | undefined
  pending: boolean
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
  private pollTimer: ReturnType<typeof setInterval> | undefined
  private polling = false
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
      poke,
      watermark: mode === 'poll' ? await this.xmin() : '0',
      timer: undefined,
      pending: false,
    }
    this.subscribers.add(subscriber)
    if (mode === 'poll') this.startPolling()
    return () => {
      if (subscriber.timer) clearTimeout(subscriber.timer)
      subscriber.timer = undefined
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
    for (const s of this.subscribers) if (s.timer) timers += 1
    return {
      subscribers: this.subscribers.size,
      timers,
      listening: this.listening,
      held: this.held.length,
    }
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
    if (row?.version.includes('PGlite')) return 'poll'
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

  private async snapshot(): Promise<{ xmin: bigint; xmax: bigint }> {
    const [row] = await this.sql<{ xmin: string; xmax: string }[]>`
      SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax
      FROM pg_current_snapshot() AS s`
    return { xmin: BigInt(row?.xmin ?? '0'), xmax: BigInt(row?.xmax ?? '0') }
  }

  /** Pokes now, or once the subscriber's coalescing window ends. */
  private schedule(s: Subscriber): void {
    if (s.timer) {
      s.pending = true
      return
    }
    s.poke()
    const windowEnd = () => {
      if (s.pending && this.subscribers.has(s)) {
        s.pending = false
        s.poke()
        s.timer = setTimeout(windowEnd, this.options.coalesceMs)
      } else {
        s.timer = undefined
      }
    }
    s.timer = setTimeout(windowEnd, this.options.coalesceMs)
  }

  private async xmin(): Promise<string> {
    const [row] = await this.sql<{ xmin: string }[]>`
      SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`
    return row?.xmin ?? '0'
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
    if (this.polling) return
    this.polling = true
    try {
      const to = await this.xmin()
      if (to === this.lastPolled) return
      this.lastPolled = to
      for (const s of [...this.subscribers]) {
        if (BigInt(s.watermark) >= BigInt(to)) continue
        const changed = await hasChanges(this.sql, s.viewer, s.watermark, to)
        s.watermark = to
        if (changed && this.subscribers.has(s)) this.schedule(s)
      }
    } catch (error) {
      console.warn('Sync poll failed:', error instanceof Error ? error.message : error)
    } finally {
      this.polling = false
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
