import type { PullResponse } from '../../../../shared/sync.ts'
import type { Clock } from './clock.ts'

/**
 * A new device's first pull page, shown before it is written (issue 14).
 *
 * On a first sync the first page is answered a few hundred milliseconds
 * before it is in IndexedDB: the database is still being created, the flush
 * waits for the sync lock, and writing 500 rows takes its time on a phone.
 * Once the session is known to be this user's, the page is kept here, and
 * the topic list draws its cards from it until its own read of IndexedDB
 * has rows (topic-list.tsx). It is let go when the first sync that took it
 * ends (its rows are stored by then), or at once when that sync is dropped
 * or given up. Nothing here is ever written or sent: a change made from a
 * card it drew waits until the page is stored (`settled`), so it is checked
 * against the stored rows like any other.
 */
export class EarlyPageStore {
  private page: PullResponse | null = null
  private readonly listeners = new Set<() => void>()
  readonly get = (): PullResponse | null => this.page
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  private written = false
  private waiting: (() => void)[] = []

  show(page: PullResponse): void {
    this.page = page
    this.notify()
  }

  /** The shown page is in IndexedDB now (its transaction committed). */
  markWritten(): void {
    this.written = true
    this.release()
  }

  clear(): void {
    this.release()
    if (this.page === null) return
    this.page = null
    this.notify()
  }

  /**
   * Resolves once nothing shown is missing from IndexedDB: at once when no
   * page is shown or it is written, else when it is written or let go, or
   * after `limitMs` (another tab holding the sync lock may be the one
   * writing these rows; the change then goes ahead against what is stored).
   */
  settled(clock: Clock, limitMs: number): Promise<void> {
    if (this.page === null || this.written) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = clock.setTimeout(done, limitMs)
      const waiting = this.waiting
      function done() {
        clock.clearTimeout(timer)
        const at = waiting.indexOf(done)
        if (at >= 0) waiting.splice(at, 1)
        resolve()
      }
      waiting.push(done)
    })
  }

  private release(): void {
    for (const done of this.waiting.splice(0)) done()
  }

  private notify(): void {
    for (const listener of this.listeners) listener()
  }
}
