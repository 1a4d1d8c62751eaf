import type { Actor } from '../../shared/decision.ts'
import type { Sql } from '../db/connect.ts'
import { hasChanges } from './pull.ts'

/** The channel the triggers of sql/0003_sync.sql notify on. */
export const SYNC_CHANNEL = 'pairwise_sync'

export type HubOptions = {
  /** At most one poke per client in this window; more are sent once it ends. */
  coalesceMs: number
  /** Embedded database only: how often to look for changes while clients listen. */
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
      if (this.subscribers.size === 0) this.stopPolling()
    }
  }

  /** For tests and diagnostics: open streams and running timers. */
  stats() {
    let timers = this.pollTimer ? 1 : 0
    for (const s of this.subscribers) if (s.timer) timers += 1
    return { subscribers: this.subscribers.size, timers, listening: this.listening }
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
        if (listenedBefore) for (const s of this.subscribers) this.schedule(s)
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
    const users = new Set(audience.u ?? [])
    for (const s of this.subscribers) {
      if (audience.all || users.has(s.viewer.id) || (audience.a && s.viewer.isAdmin)) {
        this.schedule(s)
      }
    }
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
