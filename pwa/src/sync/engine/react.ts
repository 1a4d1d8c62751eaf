import { useLiveQuery } from 'dexie-react-hooks'
import {
  createContext,
  createElement,
  type ReactNode,
  useContext,
  useSyncExternalStore,
} from 'react'
import type { SyncTable } from '../../../../shared/sync.ts'
import type { Mutations } from '../mutators/mutations.ts'
import type { RowTable, SyncDb } from './db.ts'
import type { SyncEngine } from './engine.ts'
import type { SyncStatus } from './status.ts'
import { useStallCheck, waitIfClosed } from './use-stall-check.ts'
import { readPreferences, readRejected, readRow, readTable } from './view.ts'

/**
 * The thin React layer over the engine: screens read the merged view through
 * `useLiveQuery` (re-rendered on any tab's write) and write through
 * `useMutations()`; `useSyncStatus()` is the status bar.
 *
 * @example
 * const topics = useSyncedTable('topics')            // undefined while loading
 * const { pendingCount, needsSignIn } = useSyncStatus()
 * const mutate = useMutations()
 * await mutate.applyToTopic(topic.id)
 */

const SyncEngineContext = createContext<SyncEngine | null>(null)

/** Makes `engine` (the signed-in user's) available to the hooks below. */
export function SyncProvider(props: { engine: SyncEngine; children?: ReactNode }) {
  return createElement(SyncEngineContext.Provider, { value: props.engine }, props.children)
}

export function useSyncEngine(): SyncEngine {
  const engine = useContext(SyncEngineContext)
  if (!engine) throw new Error('useSyncEngine needs a <SyncProvider> above it.')
  return engine
}

/** Online/offline, pending and refused counts, last sync, "sign in again". */
export function useSyncStatus(): SyncStatus {
  const { status } = useSyncEngine()
  return useSyncExternalStore(status.subscribe, status.get, status.get)
}

export function useMutations(): Mutations {
  return useSyncEngine().mutate
}

/**
 * Any read of the user's database, live: `read` runs again whenever what it
 * read changes. `deps` are the values `read` uses besides the database.
 * Undefined while the first read runs.
 */
export function useSynced<T>(
  read: (db: SyncDb) => Promise<T>,
  deps: unknown[] = [],
): T | undefined {
  const engine = useSyncEngine()
  // After the watchdog reopened IndexedDB, queries stuck on the old connection start again.
  const recoveries = useSyncExternalStore(engine.recoveries.subscribe, engine.recoveries.get)
  const value = useLiveQuery(
    () => read(engine.db).catch(waitIfClosed),
    [engine, recoveries, ...deps],
  )
  useStallCheck(engine, value === undefined)
  return value
}

/** Every merged row of a table: each with `sync.pending`, `sync.rejected`... */
export function useSyncedTable<K extends SyncTable>(table: K) {
  return useSynced((db) => readTable(db, table), [table])
}

/** One merged row; null when there is none (undefined while loading). */
export function useSyncedRow<K extends RowTable>(table: K, id: string | undefined) {
  return useSynced(
    async (db) => (id === undefined ? null : ((await readRow(db, table, id)) ?? null)),
    [table, id],
  )
}

export function usePreferences() {
  return useSynced(readPreferences)
}

/** The "changes that could not be saved" list, newest first. */
export function useRejectedChanges() {
  return useSynced(readRejected)
}
