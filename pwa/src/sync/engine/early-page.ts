import type { PullResponse } from '../../../../shared/sync.ts'

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
 * or given up. Nothing here is ever written or sent.
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

  show(page: PullResponse): void {
    this.page = page
    this.notify()
  }

  clear(): void {
    if (this.page === null) return
    this.page = null
    this.notify()
  }

  private notify(): void {
    for (const listener of this.listeners) listener()
  }
}
