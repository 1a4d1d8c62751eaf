import type { Client, TestServer } from '../../../../sync-server/test/server.ts'
import type { FetchLike } from '../../lib/http.ts'
import type { Clock } from '../engine/clock.ts'
import type { RowTable, SyncDb } from '../engine/db.ts'
import { type FlushResult, SyncEngine, type SyncEngineOptions } from '../engine/engine.ts'
import { memoryLock, type SyncLock } from '../engine/lock.ts'
import type { SyncStatus } from '../engine/status.ts'
import { readOutbox, readRow } from '../engine/view.ts'

// What the sync client's tests drive it with: a clock moved by hand, a
// network that can go offline, lose answers or hang, and engines on fake
// IndexedDB against the real server.

/** Timers that fire only when the test moves time on. */
export class ManualClock implements Clock {
  private time = Date.now()
  private nextId = 1
  private readonly timers = new Map<number, { at: number; fn: () => void }>()

  now = (): number => this.time

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = this.nextId++
    this.timers.set(id, { at: this.time + Math.max(0, ms), fn })
    return id
  }

  clearTimeout = (handle: unknown): void => {
    this.timers.delete(handle as number)
  }

  /** Moves time on, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.time + ms
    for (;;) {
      const due = [...this.timers]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at)
      const first = due[0]
      if (!first) break
      this.timers.delete(first[0])
      this.time = Math.max(this.time, first[1].at)
      first[1].fn()
    }
    this.time = until
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.size
  }
}

export type Sent = { method: string; path: string; query: URLSearchParams; body: unknown }

/**
 * fetch for an engine, as the test Client (its session cookie). `mode`:
 * `offline` throws as a browser does; `lose` applies a request whose path
 * matches, then throws as if the answer was lost; `hang` never answers (nor
 * heeds an abort) for paths matching it.
 */
export class TestNetwork {
  offline = false
  lose: RegExp | null = null
  hang: RegExp | null = null
  /** Requests that answer only when aborted (a request that heeds its time limit). */
  slow: ((url: URL) => boolean) | null = null
  /** How many slow requests are waiting for their abort. */
  waiting = 0
  /** Answers instead of the server when it returns a Response. */
  intercept:
    | ((sent: Sent, forward: () => Promise<Response>) => Promise<Response | undefined>)
    | null = null
  readonly sent: Sent[] = []

  constructor(public client: Client) {}

  /** The mutations every push so far carried, in order. */
  get pushed(): { id: string; path: string }[] {
    return this.sent
      .filter((s) => s.path === '/api/sync/push')
      .flatMap((s) => (s.body as { mutations: { id: string; path: string }[] }).mutations)
  }

  readonly fetch: FetchLike = async (url, init) => {
    const u = new URL(url)
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined
    const sent: Sent = {
      method: init.method ?? 'GET',
      path: u.pathname,
      query: u.searchParams,
      body,
    }
    if (this.offline) throw new TypeError('fetch failed')
    this.sent.push(sent)
    if (this.hang?.test(u.pathname)) return new Promise<Response>(() => {})
    if (this.slow?.(u)) {
      this.waiting += 1
      return new Promise<Response>((_, reject) => {
        init.signal?.addEventListener('abort', () => {
          this.waiting -= 1
          reject(new DOMException('Aborted', 'AbortError'))
        })
      })
    }
    const headers = new Headers(init.headers)
    if (this.client.cookie) headers.set('cookie', this.client.cookie)
    const forward = () => fetch(url, { ...init, headers })
    const replaced = await this.intercept?.(sent, forward)
    if (replaced) return replaced
    const res = await forward()
    if (this.lose?.test(u.pathname)) {
      await res.text()
      throw new TypeError('fetch failed: the connection was reset')
    }
    return res
  }
}

/** Engines a test file started, stopped and deleted after each test. */
const started: SyncEngine[] = []

export type TestEngine = { engine: SyncEngine; network: TestNetwork; clock: ManualClock }

/**
 * An engine as `client`'s user against `server`: a manual clock (retries and
 * the watchdog fire only when a test moves time), no pokes unless given, a
 * lock of its own unless given one (two tabs share one), and no first-page
 * prefetch unless asked for.
 */
export function createEngine(
  server: TestServer,
  client: Client,
  options: Partial<SyncEngineOptions> & { network?: TestNetwork } = {},
): TestEngine {
  const user = client.user
  if (!user) throw new Error('sign the client in first')
  const network = options.network ?? new TestNetwork(client)
  const clock = (options.clock ?? new ManualClock()) as ManualClock
  const engine = new SyncEngine({
    user,
    fetch: network.fetch,
    baseUrl: server.url,
    lock: memoryLock(),
    eventSource: null,
    connectivity: null,
    storage: null,
    // Off unless a test asks for it: it adds a request the others do not expect (prefetch.test.ts).
    prefetchFirstPage: false,
    ...options,
    clock,
  })
  started.push(engine)
  return { engine, network, clock }
}

/**
 * Takes `userId`'s sync lock as another tab would, until `release()`, which
 * resolves once the lock is let go.
 */
export function holdSyncLock(lock: SyncLock, userId: string): { release: () => Promise<void> } {
  let free = () => {}
  const held = new Promise<void>((resolve) => {
    free = resolve
  })
  const holding = lock(`pairwise-sync-${userId}`, () => held)
  return {
    release: () => {
      free()
      return holding
    },
  }
}

/** Stops every engine started so far and deletes their databases. */
export async function stopEngines(): Promise<void> {
  const engines = started.splice(0)
  for (const engine of engines) await engine.stop()
  for (const name of new Set(engines.map((e) => e.db.name))) {
    await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase(name)
      request.onsuccess = request.onerror = resolve
    })
  }
}

/**
 * Flushes until no applied change waits for a pull to show it: the server
 * may hold a change back a pass while another transaction in the cluster is
 * open (other test files share the PostgreSQL server). Answers the first
 * flush's result, which counts what was pushed.
 */
export async function flushSettled(engine: SyncEngine): Promise<FlushResult> {
  const first = await engine.flush()
  let last = first
  const deadline = Date.now() + 10_000
  while (last.outcome === 'synced' && last.pulled.waiting > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    last = await engine.flush()
  }
  return first
}

/** Flushes until `probe` holds: a change made by someone else has arrived. */
export async function pullUntil(engine: SyncEngine, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('the change never arrived')
    await new Promise((resolve) => setTimeout(resolve, 10))
    const result = await engine.flush()
    if (result.outcome !== 'synced') throw new Error(`flush failed: ${result.error}`)
  }
}

/** Starts an engine and pulls until the rows a test needs have arrived in the state it needs. */
export async function startSynced(
  engine: SyncEngine,
  probe: (db: SyncDb) => Promise<boolean> = async () => true,
): Promise<FlushResult> {
  const result = await engine.start()
  await pullUntil(engine, () => probe(engine.db))
  return result
}

/** A probe: these rows are there, each satisfying its check when given. */
export function rows(
  ...wanted: [table: RowTable, id: string, check?: (row: Record<string, unknown>) => boolean][]
): (db: SyncDb) => Promise<boolean> {
  return async (db) => {
    for (const [table, id, check] of wanted) {
      const row = await readRow(db, table, id)
      if (!row || (check && !check(row as Record<string, unknown>))) return false
    }
    return true
  }
}

/** Resolves once the engine's status satisfies `predicate` (waits on the status, not on time). */
export function waitForStatus(
  engine: SyncEngine,
  predicate: (status: SyncStatus) => boolean,
  timeoutMs = 10_000,
): Promise<SyncStatus> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const status = engine.status.get()
      if (!predicate(status)) return false
      clearTimeout(timer)
      unsubscribe()
      resolve(status)
      return true
    }
    const timer = setTimeout(() => {
      unsubscribe()
      reject(new Error(`status never matched: ${JSON.stringify(engine.status.get())}`))
    }, timeoutMs)
    const unsubscribe = engine.status.subscribe(() => void check())
    check()
  })
}

/** Resolves once `probe` answers true, re-checking as the engine's database changes. */
export async function waitUntil(probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition never held')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Resolves once every queued change has left the outbox and no flush runs. */
export function waitUntilAllSent(engine: SyncEngine): Promise<void> {
  return waitUntil(
    async () => (await readOutbox(engine.db)).length === 0 && !engine.status.get().syncing,
  )
}
