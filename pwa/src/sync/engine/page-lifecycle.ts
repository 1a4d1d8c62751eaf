/**
 * The page going into the browser's back/forward cache and coming back.
 *
 * WebKit (Safari, every iPhone browser) freezes a page in its back/forward
 * cache with whatever IndexedDB work it had in flight, and the database's
 * other users wait for that work as long as the page stays cached: an
 * upgrade frozen half-way (the database being created on a first visit)
 * blocked every later `open()` of the database, in the next page of the
 * same tab too, for as long as we watched (decision 0024: "the WebKit
 * wedge"). So when the page is hidden into the cache, the engine lets go
 * of IndexedDB and the sync lock, and takes them up again when it is shown.
 */
export type PageEvent = 'frozen' | 'restored'

export type PageLifecycle = {
  subscribe: (listener: (event: PageEvent) => void) => () => void
}

type PageTransitionLike = Event & { persisted?: boolean }

/** `pagehide` into the back/forward cache, and `pageshow` out of it; null outside a page. */
export function browserPageLifecycle(): PageLifecycle | null {
  if (typeof window === 'undefined' || typeof window.addEventListener !== 'function') return null
  return {
    subscribe: (listener) => {
      // A page that is not kept (persisted false) is torn down, and the
      // browser aborts its IndexedDB work with it.
      const hide = (event: PageTransitionLike) => {
        if (event.persisted) listener('frozen')
      }
      const show = (event: PageTransitionLike) => {
        if (event.persisted) listener('restored')
      }
      window.addEventListener('pagehide', hide)
      window.addEventListener('pageshow', show)
      return () => {
        window.removeEventListener('pagehide', hide)
        window.removeEventListener('pageshow', show)
      }
    },
  }
}

/**
 * An IDBFactory whose connections' transactions can all be aborted at once,
 * and which refuses to let an open finish while the page is frozen: a page
 * frozen with a transaction under way (a pull writing a page, a screen's
 * read, an upgrade) blocks the database's other users just as a frozen
 * upgrade does. An `upgradeneeded` or `success` the browser hands the page
 * after `pagehide` (and before it freezes it) is aborted or closed here
 * before Dexie sees it. So a frozen page holds nothing.
 */
export class FreezableIndexedDb {
  readonly factory: IDBFactory
  private frozen = false
  private readonly live = new Set<IDBTransaction>()

  constructor(real: IDBFactory) {
    const open = (name: string, version?: number) => this.open(real, name, version)
    this.factory = new Proxy(real, {
      get: (target, property) => {
        if (property === 'open') return open
        const value: unknown = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  }

  /** Aborts every transaction still under way (their callers see an AbortError) and refuses opens. */
  freeze(): void {
    this.frozen = true
    for (const transaction of this.live) {
      try {
        transaction.abort()
      } catch {
        // Finished in the meantime.
      }
    }
    this.live.clear()
  }

  thaw(): void {
    this.frozen = false
  }

  private open(real: IDBFactory, name: string, version?: number): IDBOpenDBRequest {
    const request = version === undefined ? real.open(name) : real.open(name, version)
    // Registered before Dexie sets its handlers, so these run first.
    request.addEventListener('upgradeneeded', (event) => {
      if (!this.frozen) return this.track(request.transaction)
      event.stopImmediatePropagation()
      // The open then fails with an AbortError, which Dexie reports to its caller.
      request.transaction?.abort()
    })
    request.addEventListener('success', () => {
      const db = request.result
      if (this.frozen) return db.close()
      const transaction = db.transaction.bind(db)
      db.transaction = ((...args: Parameters<IDBDatabase['transaction']>) => {
        const started = transaction(...args)
        this.track(started)
        return started
      }) as IDBDatabase['transaction']
    })
    return request
  }

  private track(transaction: IDBTransaction | null): void {
    if (!transaction) return
    this.live.add(transaction)
    const done = () => this.live.delete(transaction)
    transaction.addEventListener('complete', done)
    transaction.addEventListener('abort', done)
  }
}
