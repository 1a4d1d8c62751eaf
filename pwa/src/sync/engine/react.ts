import Dexie, { type ObservabilitySet } from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import {
  createContext,
  createElement,
  type ReactNode,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import type { PullResponse, SyncTable } from '../../../../shared/sync.ts'
import type { Mutations } from '../mutators/mutations.ts'
import { touchesRead } from './changed-parts.ts'
import type { RowTable, SyncDb } from './db.ts'
import type { SyncEngine } from './engine.ts'
import { shareEqual } from './share.ts'
import type { SyncStatus } from './status.ts'
import { useStallCheck, waitIfCutOff } from './use-stall-check.ts'
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

/** A new device's first pull page while it is being written (early-page.ts), or null. */
export function useEarlyPage(): PullResponse | null {
  const { earlyPage } = useSyncEngine()
  return useSyncExternalStore(earlyPage.subscribe, earlyPage.get, earlyPage.get)
}

export function useMutations(): Mutations {
  return useSyncEngine().mutate
}

/**
 * Any read of the user's database, live: `read` runs again whenever what it
 * read changes. `deps` are the values `read` uses besides the database.
 * Undefined while the first read runs. An answer keeps the objects of the
 * one before wherever they are deep-equal (`shareEqual`), so what did not
 * change is not drawn again, and an answer equal to the last is no render.
 */
export function useSynced<T>(
  read: (db: SyncDb) => Promise<T>,
  deps: unknown[] = [],
): T | undefined {
  const engine = useSyncEngine()
  // After the watchdog reopened IndexedDB, queries stuck on the old connection start again.
  const recoveries = useSyncExternalStore(engine.recoveries.subscribe, engine.recoveries.get)
  // What the last read answered: the next answer keeps its unchanged parts (shareEqual).
  const last = useRef<T | undefined>(undefined)
  const value = useLiveQuery(() => {
    const freezes = engine.freezes
    return read(engine.db)
      .then((next) => {
        const shared = shareEqual(last.current, next)
        last.current = shared
        return shared
      })
      .catch((error: unknown) => waitIfCutOff(engine, freezes, error))
  }, [engine, recoveries, ...deps])
  useStallCheck(engine, value === undefined)
  return value
}

/** The longest a background read waits for the page to be idle. */
const BACKGROUND_WAIT_MS = 300

/**
 * Calls `then` once the page is idle (requestIdleCallback, at most
 * BACKGROUND_WAIT_MS later), or after a short timeout where the browser has
 * no idle callbacks (Safari). Answers a function that cancels it.
 */
function whenIdle(then: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(then, { timeout: BACKGROUND_WAIT_MS })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(then, 50)
  return () => clearTimeout(id)
}

/** How often at most a coalesced read runs again while writes keep coming. */
const COALESCE_MS = 400
/** The same while a sync is writing pages: the main thread has the pages to parse too. */
const COALESCE_SYNCING_MS = 1000
/**
 * While a sync writes pages, a read waits at least this many times as long as
 * it took last time: a read of every topic takes 200-500 ms at company scale,
 * and the pages' writes wait behind it (issue 14).
 */
const SYNCING_READ_SHARE = 6

/**
 * `useSynced` for reads over whole tables (thousands of rows): runs again
 * when one of `tables` changes (in any tab; the overlay only for rows of the
 * others, changed-parts.ts), at once for the first change
 * after a quiet spell, then at most every `every` ms while writes keep
 * coming (every second while a sync is writing pages: a first sync writes one
 * every few hundred ms), and never two at a time. `initial` is shown until the first read answers (a cached earlier
 * answer, so a return visit paints at once).
 *
 * `background`: what the screen shows beside its main content (the
 * recommendations, the bell). Each read waits until the page is idle (at
 * most `BACKGROUND_WAIT_MS`), so the reads and the drawing of what the person
 * is looking at go first: a new application on an open dashboard is not drawn
 * after the whole catalogue was read again for matching (issue 20).
 */
export function useSyncedCoalesced<T>(
  read: (db: SyncDb) => Promise<T>,
  tables: readonly string[],
  deps: unknown[],
  options: { initial?: T; every?: number; background?: boolean } = {},
): T | undefined {
  const engine = useSyncEngine()
  const recoveries = useSyncExternalStore(engine.recoveries.subscribe, engine.recoveries.get)
  const [value, setValue] = useState<T | undefined>(options.initial)
  const [failure, setFailure] = useState<{ error: unknown } | null>(null)
  const every = options.every ?? COALESCE_MS
  const background = options.background === true
  // biome-ignore lint/correctness/useExhaustiveDependencies: `deps` are the read's inputs, as in useSynced.
  useEffect(() => {
    const db = engine.db
    let stopped = false
    let running = false
    let again = false
    let lastRun = Number.NEGATIVE_INFINITY
    let lastTook = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    let waiting = false
    let cancelTurn: (() => void) | undefined
    // A background read's turn comes when the page is idle; any other's at once.
    const turn = (then: () => void) => {
      if (!background) return then()
      cancelTurn = whenIdle(() => {
        cancelTurn = undefined
        then()
      })
    }
    // The first read does not count against the gap: the first page of a first sync shows at once.
    const run = (first = false) => {
      running = true
      const started = performance.now()
      if (!first) lastRun = started
      const freezes = engine.freezes
      read(db)
        .catch((error: unknown) => waitIfCutOff(engine, freezes, error))
        .then(
          (next) => {
            lastTook = performance.now() - started
            if (!stopped) setValue(() => next)
          },
          (error: unknown) => {
            if (!stopped) setFailure({ error })
          },
        )
        .finally(() => {
          running = false
          if (again) {
            again = false
            schedule()
          }
        })
    }
    const schedule = () => {
      if (stopped || waiting) return
      if (running) {
        again = true
        return
      }
      const gap = engine.status.get().syncing
        ? Math.max(every, COALESCE_SYNCING_MS, lastTook * SYNCING_READ_SHARE)
        : every
      const wait = Math.max(0, lastRun + gap - performance.now())
      waiting = true
      timer = setTimeout(() => {
        timer = undefined
        turn(() => {
          waiting = false
          if (!stopped) run()
        })
      }, wait)
    }
    const onChange = (parts: ObservabilitySet) => {
      if (touchesRead(parts, db.name, tables)) schedule()
    }
    Dexie.on('storagemutated', onChange)
    // Once the sync has ended, a read held back while it wrote waits no longer than usual.
    const unwatch = engine.status.subscribe(() => {
      if (timer === undefined || engine.status.get().syncing) return
      clearTimeout(timer)
      timer = undefined
      waiting = false
      schedule()
    })
    turn(() => run(true))
    return () => {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      cancelTurn?.()
      unwatch()
      Dexie.on('storagemutated').unsubscribe(onChange)
    }
  }, [engine, recoveries, every, background, tables.join(), ...deps])
  useStallCheck(engine, value === undefined)
  // As useLiveQuery does: a failed read is the route's error screen.
  if (failure) throw failure.error
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
