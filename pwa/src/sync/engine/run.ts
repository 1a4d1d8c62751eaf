import type { Clock } from './clock.ts'

/** The session is gone (or is someone else's): keep the queue, ask the person to sign in again. */
export class NeedsSignIn extends Error {
  override readonly name = 'NeedsSignIn'
}

/** Try again later (a 5xx, a 429, an answer that makes no sense). */
export class RetryLater extends Error {
  override readonly name = 'RetryLater'
}

/** The watchdog gave up on this flush (or the engine stopped). */
export class Abandoned extends Error {
  override readonly name = 'Abandoned'
  constructor() {
    super('The sync run was abandoned.')
  }
}

/**
 * One flush under a watchdog: if no step makes progress for `watchdogMs`
 * (a fetch that ignores its time limit, an IndexedDB call that never
 * returns, a lock never granted), the run is abandoned: `signal` aborts,
 * `guard` rejects, and `check` stops whatever is still going from writing.
 */
export class Run {
  private readonly controller = new AbortController()
  private timer: unknown
  private fail: (error: Abandoned) => void = () => {}
  private readonly abandoned: Promise<never>

  constructor(
    private readonly clock: Clock,
    private readonly watchdogMs: number,
  ) {
    this.abandoned = new Promise<never>((_, reject) => {
      this.fail = reject
    })
    this.abandoned.catch(() => {})
    this.progress()
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  get isAbandoned(): boolean {
    return this.controller.signal.aborted
  }

  /** A step finished: the watchdog starts counting again. */
  progress(): void {
    this.clock.clearTimeout(this.timer)
    if (this.isAbandoned) return
    this.timer = this.clock.setTimeout(() => this.abandon(), this.watchdogMs)
  }

  /** Throws when the run was abandoned: call before every write. */
  check(): void {
    if (this.isAbandoned) throw new Abandoned()
  }

  abandon(): void {
    if (this.isAbandoned) return
    this.clock.clearTimeout(this.timer)
    this.controller.abort(new Abandoned())
    this.fail(new Abandoned())
  }

  /** `work`, or an Abandoned rejection as soon as the run is abandoned. */
  guard<T>(work: Promise<T>): Promise<T> {
    work.catch(() => {})
    return Promise.race([work, this.abandoned])
  }

  dispose(): void {
    this.clock.clearTimeout(this.timer)
  }
}
