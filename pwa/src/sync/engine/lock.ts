/**
 * An exclusive lock by name, held while `fn` runs: Web Locks in browsers, so
 * one tab flushes at a time (a tab that closes lets go of it), or an
 * in-memory lock, which tests share between two engines to act as two tabs.
 * Aborting `signal` gives up waiting.
 */
export type SyncLock = <T>(name: string, fn: () => Promise<T>, signal?: AbortSignal) => Promise<T>

type LockManagerLike = {
  request: (
    name: string,
    options: { signal?: AbortSignal },
    fn: () => Promise<unknown>,
  ) => Promise<unknown>
}

function webLock(locks: LockManagerLike): SyncLock {
  return (name, fn, signal) =>
    locks.request(name, signal ? { signal } : {}, fn) as Promise<Awaited<ReturnType<typeof fn>>>
}

/** A lock shared by whoever holds this function: waiters go in order. */
export function memoryLock(): SyncLock {
  const tails = new Map<string, Promise<void>>()
  return async (name, fn, signal) => {
    const previous = tails.get(name) ?? Promise.resolve()
    let release = () => {}
    const mine = new Promise<void>((resolve) => {
      release = resolve
    })
    const tail = previous.then(() => mine)
    tails.set(name, tail)
    try {
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason)
        const onAbort = () => reject(signal?.reason)
        signal?.addEventListener('abort', onAbort, { once: true })
        previous.then(() => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        })
      })
      return await fn()
    } finally {
      release()
      if (tails.get(name) === tail) tails.delete(name)
    }
  }
}

/** Web Locks when the browser has them, else a lock for this page only. */
export function defaultLock(): SyncLock {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks
  return locks ? webLock(locks) : memoryLock()
}
