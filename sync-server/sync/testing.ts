import postgres, { type Sql, type TransactionSql } from 'postgres'
import { expect } from 'vitest'
import { type PullResponse, pullResponseSchema, SYNC_KEY, SYNC_TABLES } from '../../shared/sync.ts'
import type { Client } from '../test/server.ts'
import { readBounds } from './watermark.ts'

// Helpers the sync tests share: a client that pulls to the end, as the PWA's
// sync client will.

type Rows = Record<string, Record<string, unknown> & { version: number }>

/** What a client holds after applying pages: rows by table and key, and its cursor. */
export type Replica = {
  tables: Record<(typeof SYNC_TABLES)[number], Rows>
  preferences: PullResponse['changes']['preferences']
  settings: PullResponse['changes']['settings']
  cursor: string | undefined
}

export function emptyReplica(): Replica {
  return {
    tables: {
      topics: {},
      applications: {},
      feedback: {},
      notifications: {},
      users: {},
      interests: {},
      dismissals: {},
      invitations: {},
    },
    preferences: null,
    settings: null,
    cursor: undefined,
  }
}

/** One GET /api/sync/pull, checked against the response schema. */
export async function pullOnce(
  client: Client,
  cursor: string | undefined,
  limit?: number,
): Promise<PullResponse> {
  const params = new URLSearchParams()
  if (cursor !== undefined) params.set('cursor', cursor)
  if (limit !== undefined) params.set('limit', String(limit))
  const res = await client.get(`/api/sync/pull?${params}`)
  expect(res.status, res.text).toBe(200)
  return pullResponseSchema.parse(res.body)
}

/** Applies one page the way the protocol says: reset, removals, then changes (newer wins). */
export function applyPage(replica: Replica, page: PullResponse): void {
  if (page.reset) Object.assign(replica, emptyReplica())
  for (const table of SYNC_TABLES) {
    for (const id of page.removed[table]) delete replica.tables[table][id]
    for (const row of page.changes[table] as (Record<string, unknown> & { version: number })[]) {
      const key = String(row[SYNC_KEY[table]])
      const held = replica.tables[table][key]
      if (!held || held.version <= row.version) replica.tables[table][key] = row
    }
  }
  if (page.changes.preferences) replica.preferences = page.changes.preferences
  if (page.changes.settings) replica.settings = page.changes.settings
  replica.cursor = page.cursor
}

/** Pulls until `hasMore` is false; answers the pages. */
export async function pullToEnd(
  client: Client,
  replica: Replica,
  limit?: number,
): Promise<PullResponse[]> {
  const pages: PullResponse[] = []
  for (;;) {
    const page = await pullOnce(client, replica.cursor, limit)
    applyPage(replica, page)
    pages.push(page)
    if (!page.hasMore) return pages
    if (pages.length > 10_000) throw new Error('pull did not end')
  }
}

/** Rows a set of pages carried, counted over every table (changes and removals). */
export function rowsMoved(pages: PullResponse[]): number {
  let count = 0
  for (const page of pages) {
    for (const table of SYNC_TABLES)
      count += page.changes[table].length + page.removed[table].length
  }
  return count
}

/** A synced row without its version: what the REST read answers. */
export function withoutVersion<T extends { version: number }>(row: T): Omit<T, 'version'> {
  const { version: _, ...rest } = row
  return rest
}

/** Server-sent events as a client reads them: named events and comment lines. */
export type EventStream = {
  status: number
  contentType: string | null
  /** Every event name received so far, comments as ':'. */
  received: string[]
  /** Resolves once `count` events named `name` (':' for comments) have arrived. */
  waitFor: (name: string, count?: number, timeoutMs?: number) => Promise<void>
  /** How many events named `name` arrived so far. */
  count: (name: string) => number
  /** When (Date.now()) the last event named `name` arrived; undefined before the first. */
  lastAt: (name: string) => number | undefined
  /** Resolves when the stream ends, whichever side ended it. */
  ended: Promise<void>
  close: () => void
}

/** Opens GET /api/sync/events as `client` and reads it in the background. */
export async function openEventStream(client: Client): Promise<EventStream> {
  const controller = new AbortController()
  const res = await fetch(`${client.baseUrl}/api/sync/events`, {
    headers: { accept: 'text/event-stream', ...(client.cookie ? { cookie: client.cookie } : {}) },
    signal: controller.signal,
  })
  const received: string[] = []
  const arrivals = new Map<string, number>()
  const waiters = new Set<() => void>()
  const count = (name: string) => received.filter((n) => n === name).length
  let ended: Promise<void> = Promise.resolve()
  if (res.body) {
    ended = (async () => {
      const decoder = new TextDecoder()
      let buffer = ''
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true })
          let end = buffer.indexOf('\n\n')
          while (end >= 0) {
            const block = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            const name = block.startsWith(':')
              ? ':'
              : (/^event: (.*)$/m.exec(block)?.[1] ?? 'message')
            received.push(name)
            arrivals.set(name, Date.now())
            for (const wake of waiters) wake()
            end = buffer.indexOf('\n\n')
          }
        }
      } catch {
        // Aborted by close().
      }
    })()
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    received,
    count,
    lastAt: (name) => arrivals.get(name),
    ended,
    waitFor: (name, wanted = 1, timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (count(name) >= wanted) {
            clearTimeout(timer)
            waiters.delete(check)
            resolve()
          }
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(
            new Error(`no ${wanted}× "${name}" within ${timeoutMs} ms; got ${received.join(', ')}`),
          )
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    close: () => controller.abort(),
  }
}

/**
 * Waits until every transaction of this database running when it was called
 * has ended. A pull serves changes below the oldest running transaction of
 * the database (the watermark, watermark.ts), so the server's own background
 * work can hold a change back for a moment, as the protocol means it to;
 * after this, a pull sees everything committed before the call.
 */
export async function settled(sql: Sql, timeoutMs = 20_000): Promise<void> {
  const [mark] = await sql<{ xmax: string }[]>`
    SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`
  const target = BigInt(mark?.xmax ?? '0')
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if ((await readBounds(sql)).xmin >= target) return
    if (Date.now() > deadline) throw new Error('Transactions older than the test stayed open')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * A transaction held open on a connection of its own, to make commits land
 * out of order: `work` runs in it, then it waits for `commit()`, which also
 * closes the connection. Answers once `work` has run, with what it answered.
 *
 * @example
 * const a = await holdTransaction(url, async (tx) => (await tx`SELECT nextval('sync_version')`)[0])
 * try { ... } finally { await a.commit() }
 */
export async function holdTransaction<T>(
  databaseUrl: string,
  work: (tx: TransactionSql) => Promise<T>,
): Promise<{ value: T; commit: () => Promise<void> }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let ran: (value: T) => void = () => {}
  const result = new Promise<T>((resolve) => {
    ran = resolve
  })
  const done = sql.begin(async (tx) => {
    ran(await work(tx))
    await released
  })
  let value: T
  try {
    // `work` failing ends the transaction before it answers.
    value = await Promise.race([result, done.then(() => result)])
  } catch (error) {
    await sql.end()
    throw error
  }
  return {
    value,
    commit: async () => {
      release()
      try {
        await done
      } finally {
        await sql.end()
      }
    },
  }
}
