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
 * the next window is longer (coalesceMs, 2×, 4×… up to maxCoalesceMs). A window
 * that ends with nothing to send returns the stream to quiet: the next change
 * goes out at once again.
 *
 * @example
 * const pokes = new Coalescer(() => stream.writeSSE({ event: 'poke', data: '{}' }), options)
 * pokes.trigger() // sent now
 * pokes.trigger() // sent when the window ends
 */
export class Coalescer {
  private timer: ReturnType<typeof setTimeout> | undefined
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
    if (this.timer) {
      this.pending = true
      return
    }
    this.windowMs = this.options.coalesceMs
    this.send()
    this.open()
  }

  /** A window is open (a timer runs). */
  get waiting(): boolean {
    return this.timer !== undefined
  }

  /** Sends nothing more and lets go of the timer. */
  stop(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.pending = false
  }

  private open(): void {
    this.timer = setTimeout(() => this.close(), this.windowMs)
  }

  private close(): void {
    this.timer = undefined
    if (!this.pending) return
    this.pending = false
    this.send()
    const { coalesceMs, maxCoalesceMs } = this.options
    this.windowMs = Math.max(coalesceMs, Math.min(this.windowMs * 2, maxCoalesceMs))
    this.open()
  }
}
