export type CoalesceOptions = {
  /** After a poke, more changes wait this long and go out together in one poke. */
  coalesceMs: number
  /**
   * While changes keep coming, each window is twice the last, up to this: a
   * long burst costs each client a few pulls (about log2 of its length), not
   * one per window.
   */
  maxCoalesceMs: number
}

/**
 * The pokes of one event stream: leading edge, then growing windows.
 *
 * The first change after a quiet period is sent at once, so a change shows on
 * the other screens as fast as the protocol allows. Changes during the window
 * that follows are sent as one poke when it ends, and while they keep coming
 * the next window is longer (coalesceMs, 2×, 4×… up to maxCoalesceMs).
 *
 * A window that ends with nothing to send is followed by a cool-down as long
 * as itself: a change then is still sent at once (nothing is waiting), but the
 * window after it keeps growing, so a burst with pauses in it (a busy server
 * lets notifications through in clumps) still costs a few pokes. Only a
 * cool-down that passes quietly returns the stream to the shortest window.
 *
 * @example
 * const pokes = new Coalescer(() => stream.writeSSE({ event: 'poke', data: '{}' }), options)
 * pokes.trigger() // sent now
 * pokes.trigger() // sent when the window ends
 */
export class Coalescer {
  private timer: ReturnType<typeof setTimeout> | undefined
  private state: 'quiet' | 'window' | 'cooling' = 'quiet'
  private pending = false
  private windowMs: number

  constructor(
    private readonly send: () => void,
    private readonly options: CoalesceOptions,
  ) {
    this.windowMs = options.coalesceMs
  }

  /** Something changed: poke now, or once the current window ends. */
  trigger(): void {
    if (this.state === 'window') {
      this.pending = true
      return
    }
    if (this.state === 'quiet') this.windowMs = this.options.coalesceMs
    else this.grow()
    this.send()
    this.open()
  }

  /** A window or cool-down is running (a timer runs). */
  get waiting(): boolean {
    return this.timer !== undefined
  }

  /** Whether a poke is held for the end of the current window. */
  get holding(): boolean {
    return this.pending
  }

  /** Sends nothing more and lets go of the timer. */
  stop(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.state = 'quiet'
    this.pending = false
  }

  private open(): void {
    clearTimeout(this.timer)
    this.state = 'window'
    this.timer = setTimeout(() => this.close(), this.windowMs)
  }

  private close(): void {
    this.timer = undefined
    if (this.pending) {
      this.pending = false
      this.send()
      this.grow()
      this.open()
      return
    }
    this.state = 'cooling'
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.state = 'quiet'
    }, this.windowMs)
  }

  private grow(): void {
    const { coalesceMs, maxCoalesceMs } = this.options
    this.windowMs = Math.max(coalesceMs, Math.min(this.windowMs * 2, maxCoalesceMs))
  }
}
