/**
 * The browser around the engine, each part injectable: tests in Node pass
 * their own or none.
 */

/** Whether the browser is online, and when that changes (or the page is shown again). */
export type Connectivity = {
  isOnline: () => boolean
  subscribe: (listener: (event: 'online' | 'offline' | 'visible') => void) => () => void
}

/** The part of EventSource the engine uses. */
export type EventSourceLike = {
  readonly readyState: number
  addEventListener: (type: string, listener: () => void) => void
  close: () => void
}
export type EventSourceFactory = (url: string) => EventSourceLike
/** EventSource.CLOSED: the browser stopped reconnecting (say, a 401). */
export const EVENT_SOURCE_CLOSED = 2

/** navigator.storage, as far as persistence goes. */
export type StorageLike = {
  persisted?: () => Promise<boolean>
  persist?: () => Promise<boolean>
}

export function browserConnectivity(): Connectivity | null {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return null
  return {
    isOnline: () => navigator.onLine !== false,
    subscribe: (listener) => {
      const online = () => listener('online')
      const offline = () => listener('offline')
      const visible = () => {
        if (document.visibilityState === 'visible') listener('visible')
      }
      window.addEventListener('online', online)
      window.addEventListener('offline', offline)
      document.addEventListener('visibilitychange', visible)
      return () => {
        window.removeEventListener('online', online)
        window.removeEventListener('offline', offline)
        document.removeEventListener('visibilitychange', visible)
      }
    },
  }
}

export function browserEventSource(): EventSourceFactory | null {
  if (typeof EventSource === 'undefined') return null
  return (url) => new EventSource(url, { withCredentials: true })
}

export function browserStorage(): StorageLike | null {
  if (typeof navigator === 'undefined') return null
  return (navigator as { storage?: StorageLike }).storage ?? null
}
