import type { FetchLike } from '../../lib/http.ts'
import { type BackoffOptions, DEFAULT_BACKOFF } from './backoff.ts'
import { type Clock, systemClock } from './clock.ts'
import type { IndexedDbDeps } from './db.ts'
import type { NameStore } from './db-name.ts'
import {
  browserConnectivity,
  browserEventSource,
  browserStorage,
  type Connectivity,
  type EventSourceFactory,
  type StorageLike,
} from './environment.ts'
import { defaultLock, type SyncLock } from './lock.ts'
import type { PageLifecycle } from './page-lifecycle.ts'
import { browserPageWriter, type PageWriterFactory } from './page-writer.ts'

/** Everything environment-specific is injectable; the defaults are the browser's. */
export type SyncEngineOptions = {
  /** The signed-in user: the database is theirs. */
  user: { id: string; username: string; isAdmin: boolean }
  fetch?: FetchLike
  /** '' (same origin) in the browser. */
  baseUrl?: string
  /** Web Locks by default; tests share a memoryLock() between two engines (two tabs). */
  lock?: SyncLock
  /** Pokes: EventSource on /api/sync/events by default; null for none. */
  eventSource?: EventSourceFactory | null
  connectivity?: Connectivity | null
  storage?: StorageLike | null
  clock?: Clock
  random?: () => number
  newId?: () => string
  indexedDB?: IndexedDbDeps
  /** pagehide/pageshow of the back/forward cache by default; null for none. */
  pageLifecycle?: PageLifecycle | null
  /** Where the name of the user's database is kept: localStorage by default; null for none. */
  nameStore?: NameStore | null
  /** Defaults to the user's database on this device (`pairwise-<userId>`; see db-name.ts). */
  dbName?: string
  /** How long one request may take. */
  requestTimeoutMs?: number
  /** How long a flush may go without progress before it is abandoned. */
  watchdogMs?: number
  backoff?: BackoffOptions
  /** Ask for a new database's first pull page while it is created (true by default). */
  prefetchFirstPage?: boolean
  /**
   * Writes a first sync's pages after the first off the main thread
   * (page-writer.ts): a dedicated worker by default where there are workers;
   * null for none (the pull writes every page itself).
   */
  pageWriter?: PageWriterFactory | null
}

export type ResolvedOptions = Required<
  Omit<SyncEngineOptions, 'dbName' | 'indexedDB' | 'pageLifecycle' | 'nameStore'>
>

/** How long a sync request may take before it counts as unanswered. */
export const REQUEST_TIMEOUT_MS = 30_000

export function resolveOptions(options: SyncEngineOptions): ResolvedOptions {
  return {
    user: options.user,
    fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    baseUrl: options.baseUrl ?? '',
    lock: options.lock ?? defaultLock(),
    eventSource: options.eventSource === undefined ? browserEventSource() : options.eventSource,
    connectivity: options.connectivity === undefined ? browserConnectivity() : options.connectivity,
    storage: options.storage === undefined ? browserStorage() : options.storage,
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    newId: options.newId ?? (() => crypto.randomUUID()),
    requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    watchdogMs: options.watchdogMs ?? 90_000,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    prefetchFirstPage: options.prefetchFirstPage ?? true,
    pageWriter: options.pageWriter === undefined ? browserPageWriter() : options.pageWriter,
  }
}
