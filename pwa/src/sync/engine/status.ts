import { liveQuery } from 'dexie'
import { getMeta, META, type SyncDb } from './db.ts'

/** What the UI shows about sync (`useSyncStatus()`). */
export type SyncStatus = {
  /** The browser says online and the server answered the last attempt. */
  online: boolean
  /** A flush is running in this tab. */
  syncing: boolean
  /** Changes not yet known to be saved (queued, or sent without an answer). */
  pendingCount: number
  /** Changes the server refused, not dismissed yet. */
  rejectedCount: number
  /** When a pull last reached the end (ms since the epoch), in any tab. */
  lastSyncedAt: number | null
  /** The session ended (or is someone else's): the queue waits; ask to sign in again. */
  needsSignIn: boolean
  /** Why the last flush failed, for a tooltip; null after a success. */
  lastError: string | null
  /** When the next attempt runs by itself (after a backoff), if one is planned. */
  retryAt: number | null
  /** Whether the browser agreed to keep this data (navigator.storage.persist()); null: unknown. */
  persisted: boolean | null
}

export const INITIAL_STATUS: SyncStatus = {
  online: true,
  syncing: false,
  pendingCount: 0,
  rejectedCount: 0,
  lastSyncedAt: null,
  needsSignIn: false,
  lastError: null,
  retryAt: null,
  persisted: null,
}

/**
 * The status as an external store (React's useSyncExternalStore): `get`
 * answers the same object until something changes.
 */
export class StatusStore {
  private status: SyncStatus = INITIAL_STATUS
  private readonly listeners = new Set<() => void>()

  readonly get = (): SyncStatus => this.status

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  update(patch: Partial<SyncStatus>): void {
    const changed = (Object.keys(patch) as (keyof SyncStatus)[]).some(
      (k) => patch[k] !== this.status[k],
    )
    if (!changed) return
    this.status = { ...this.status, ...patch }
    for (const listener of this.listeners) listener()
  }
}

type DbStatus = Pick<SyncStatus, 'pendingCount' | 'rejectedCount' | 'lastSyncedAt' | 'needsSignIn'>

/** The status kept in the database, shared by every tab. */
function readDbStatus(db: SyncDb): Promise<DbStatus> {
  return db.transaction('r', [db.outbox, db.rejected, db.meta], async () => ({
    pendingCount: await db.outbox.where('status').anyOf('queued', 'sent').count(),
    rejectedCount: await db.rejected.count(),
    lastSyncedAt: (await getMeta<number>(db, META.lastSyncedAt)) ?? null,
    needsSignIn: (await getMeta<boolean>(db, META.needsSignIn)) ?? false,
  }))
}

/** Follows the database's part of the status (any tab's writes); answers how to stop. */
export function observeDbStatus(
  db: SyncDb,
  onChange: (status: DbStatus) => void,
  onError: (error: unknown) => void,
): () => void {
  const subscription = liveQuery(() => readDbStatus(db)).subscribe({
    next: onChange,
    error: onError,
  })
  return () => subscription.unsubscribe()
}
