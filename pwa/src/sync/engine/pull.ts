import {
  PULL_LIMIT_DEFAULT,
  type PullResponse,
  pullResponseSchema,
  SYNC_KEY,
  SYNC_TABLES,
} from '../../../../shared/sync.ts'
import { type Answer, detailOf, NoAnswer } from '../../lib/http.ts'
import { dropCaughtUp } from './catch-up.ts'
import { getMeta, META, SYNCED_TABLES, type SyncDb } from './db.ts'
import { call, checkIdentity, type FlushContext, shrink } from './flush-context.ts'
import { askFlushStart, startsAsPlanned } from './flush-start.ts'
import { NeedsSignIn, RetryLater } from './run.ts'

/** The smallest page asked for after timeouts. */
const PULL_LIMIT_MIN = 25

export type PullStats = {
  pages: number
  /** Rows written (changes kept) and removed over every table. */
  changed: number
  removed: number
  /** Applied mutations whose effect the synced rows do not show yet. */
  waiting: number
  /** Where the pull ended: the stored cursor. */
  cursor: string | undefined
}

/**
 * A planned pull (see `pullToEnd`'s `planned`) found the device elsewhere than
 * planned, or its first answer was not a page: nothing was written, and the
 * flush starts again the usual way.
 */
export class NotAsPlanned extends Error {
  override readonly name = 'NotAsPlanned'
}

/** The path of one pull page from `cursor` (undefined: from the beginning), in pages of `limit`. */
export function pullPath(cursor: string | undefined, limit: number): string {
  const params = new URLSearchParams()
  if (cursor !== undefined) params.set('cursor', cursor)
  if (limit < PULL_LIMIT_DEFAULT) params.set('limit', String(limit))
  const query = params.toString() === '' ? '' : `?${params}`
  return `/api/sync/pull${query}`
}

/**
 * How many pull pages may be asked for beyond the one being written. A first
 * sync at company scale has dozens: the server answers the next ones while
 * the device checks and writes this one.
 */
export const READ_AHEAD = 3

type Asked = {
  cursor: string | undefined
  answer: Promise<Answer>
  /** The answer, once it has come. */
  came?: Answer
  /** Whether the page after it has been asked for. */
  followed?: boolean
}

/**
 * The pull's pages in order, each asked for as soon as the page before it has
 * named its cursor (before that page is checked or written), at most
 * READ_AHEAD beyond the one taken. `take(cursor)` answers the page from
 * `cursor`: the one asked ahead, or a new request if the chain went elsewhere.
 */
export function readAhead(ask: (cursor: string | undefined) => Promise<Answer>) {
  let queue: Asked[] = []
  let tail: Asked | undefined
  let open = true
  const add = (cursor: string | undefined, answer: Promise<Answer>) => {
    const asked: Asked = { cursor, answer }
    // A failure is seen when its page is taken; never unhandled if an earlier page fails first.
    answer.then(
      (came) => {
        asked.came = came
        follow()
      },
      () => {},
    )
    queue.push(asked)
    tail = asked
  }
  const follow = () => {
    if (!open || !tail?.came || tail.followed || queue.length >= READ_AHEAD) return
    tail.followed = true
    const next = nextCursorOf(tail.came)
    if (next !== null) add(next, ask(next))
  }
  const drop = () => {
    queue = []
    tail = undefined
  }
  return {
    /** An answer already asked for (a poke's, or a new database's first page). */
    seed: add,
    take(cursor: string | undefined): Promise<Answer> {
      const next = queue[0]
      if (!next || next.cursor !== cursor) {
        drop()
        add(cursor, ask(cursor))
      }
      const taken = queue.shift() as Asked
      follow()
      return taken.answer
    },
    /** Forgets the pages asked ahead (a timeout, a restart): the next take asks again. */
    drop,
    /** No more asking: the pull ended, or failed. */
    close() {
      open = false
      drop()
    },
  }
}

/**
 * One turn of the event loop: the reads a commit set off as timers (the
 * screens' coalesced reads, useSyncedCoalesced) ask IndexedDB before the next
 * write transaction does, so they are not queued behind it.
 */
function screensFirst(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

/** The cursor of the page after `answer`'s, if it says there is one. Checked in full later. */
function nextCursorOf(answer: Answer): string | null {
  if (answer.status !== 200 || typeof answer.body !== 'object' || answer.body === null) return null
  const { hasMore, cursor } = answer.body as { hasMore?: unknown; cursor?: unknown }
  return hasMore === true && typeof cursor === 'string' ? cursor : null
}

/**
 * Applies one page in one transaction, the cursor with the rows: removals
 * first, then changes (a held row with a higher version stays). `clear`
 * drops every synced row first: a reset, or a pull from the beginning.
 * `unheld`: none of the page's rows can be held, so their held versions are
 * not read (see pullToEnd).
 */
async function applyPage(
  db: SyncDb,
  page: PullResponse,
  clear: boolean,
  unheld: boolean,
): Promise<{ changed: number; removed: number }> {
  let changed = 0
  let removed = 0
  const writes: Promise<unknown>[] = []
  // Asked for together and before the page's writes, which IndexedDB runs after them (a
  // transaction runs its requests in order): one round trip, not one per table.
  if (clear) for (const table of SYNCED_TABLES) writes.push(db.table(table).clear())
  // Every table at once: the held versions read together, then the writes together. A
  // follow-up pull brings a few rows in several tables, and each IndexedDB request is a
  // round trip that the screens wait for (issue 20).
  const tables = SYNC_TABLES.map((table) => {
    const rows = page.changes[table] as ({ version: number } & Record<string, unknown>)[]
    return { table, rows, keys: rows.map((r) => String(r[SYNC_KEY[table]])) }
  })
  const held: (({ version: number } | undefined)[] | undefined)[] =
    clear || unheld
      ? []
      : await Promise.all(
          tables.map(({ table, keys }) =>
            keys.length === 0
              ? []
              : (db.table(table).bulkGet(keys) as Promise<({ version: number } | undefined)[]>),
          ),
        )
  for (const [i, { table, rows }] of tables.entries()) {
    const ids = page.removed[table]
    if (ids.length > 0) {
      writes.push(db.table(table).bulkDelete(ids))
      removed += ids.length
    }
    // A row removed by this page is not held any more (removals go first, as IndexedDB runs
    // a transaction's requests in order): its change is written whatever the held version.
    const gone = new Set(ids)
    const fresh = rows.filter((r, j) => {
      const h = held[i]?.[j]
      return !h || h.version <= r.version || gone.has(String(r[SYNC_KEY[table]]))
    })
    if (fresh.length > 0) writes.push(db.table(table).bulkPut(fresh))
    changed += fresh.length
  }
  if (page.changes.preferences) {
    writes.push(db.preferences.put({ key: 'me', ...page.changes.preferences }))
    changed += 1
  }
  if (page.changes.settings) {
    writes.push(db.settings.put({ key: 'programme', ...page.changes.settings }))
    changed += 1
  }
  // Asked for with the rows, not after them: one round trip for the page's writes. (The
  // transaction commits all of them or none.)
  writes.push(db.meta.put({ key: META.cursor, value: page.cursor }))
  await Promise.all(writes)
  return { changed, removed }
}

/**
 * Pulls to the end. Without a cursor (a first sync, or a cursor the server
 * no longer accepts) it starts from nothing, after making sure the session is
 * this user's. The last page's transaction also records the sync time and
 * drops the applied mutations (`appliedSeqs`, known before the pull began)
 * whose effect has arrived.
 */
export async function pullToEnd(
  ctx: FlushContext,
  appliedSeqs: number[],
  /**
   * The stored cursor, when the caller has just read it (flush-start.ts), and
   * the answer to a pull from it already asked for (a poke's, or a new
   * database's first page: see flusher.ts).
   */
  known?: {
    cursor: string | undefined
    first?: { cursor: string | undefined; answer: Promise<Answer> }
    /**
     * Nothing was read before this pull (a poke's, issue 20): `cursor` is
     * where the flush believes the device stands, `first` asked from it. The
     * first page's write transaction reads where the device stands before its
     * writes (flush-start.ts) and writes only if it is as planned, with the
     * applied mutations read there in place of `appliedSeqs`; else, or when
     * the first answer is not a page, it throws NotAsPlanned having written
     * nothing.
     */
    planned?: { clientId: string }
  },
): Promise<PullStats> {
  const stats: PullStats = { pages: 0, changed: 0, removed: 0, waiting: 0, cursor: undefined }
  let cursor = known ? known.cursor : await getMeta<string>(ctx.db, META.cursor)
  let planned =
    known?.planned && cursor !== undefined
      ? { cursor, clientId: known.planned.clientId }
      : undefined
  let applied = appliedSeqs
  let restarted = false
  // A pull from nothing is one pass, which sends each row once (sync-server/sync/pull.ts): once
  // its first page has cleared the tables, no later page's row can be held, and reading the
  // held versions of a first sync's 500-row pages took half of each page's transaction.
  let fromNothing = false
  if (cursor === undefined) await checkIdentity(ctx)
  const ahead = readAhead((from) => call(ctx, 'GET', pullPath(from, ctx.sizes.pull)))
  if (known?.first) ahead.seed(known.first.cursor, known.first.answer)
  try {
    for (;;) {
      let answer: Answer
      try {
        answer = await ahead.take(cursor)
      } catch (error) {
        ahead.drop()
        // Too slow for this connection: smaller pages, so each one gets through.
        if (error instanceof NoAnswer && error.reason === 'timeout') {
          if (shrink(ctx.sizes, 'pull', ctx.sizes.pull, PULL_LIMIT_MIN)) continue
        }
        throw error
      }
      if (planned && answer.status !== 200) throw new NotAsPlanned('The early pull was no page.')
      if (answer.status === 401) throw new NeedsSignIn(detailOf(answer))
      if (answer.status === 400 && cursor !== undefined && !restarted) {
        // Not valid here (another user's, or another database's): start again, if we are still us.
        ahead.drop()
        await checkIdentity(ctx)
        cursor = undefined
        restarted = true
        continue
      }
      if (answer.status !== 200) throw new RetryLater(`The pull answered ${answer.status}.`)
      const parsed = pullResponseSchema.safeParse(answer.body)
      if (!parsed.success) throw new RetryLater('The pull answer was not understood.')
      const page = parsed.data
      const last = !page.hasMore
      const clear = page.reset || cursor === undefined
      ctx.run.check()
      const plan = planned
      planned = undefined
      await ctx.db.transaction('rw', ctx.db.tables, async () => {
        ctx.run.check()
        // Asked for before the page's writes (IndexedDB runs a transaction's requests in order).
        const start = plan ? askFlushStart(ctx.db) : undefined
        const [moved, stood] = await Promise.all([
          applyPage(ctx.db, page, clear, fromNothing),
          start,
        ])
        if (plan && stood) {
          // Throwing aborts the transaction: the page's writes are undone.
          if (!startsAsPlanned(stood, plan)) throw new NotAsPlanned('The device stood elsewhere.')
          applied = stood.applied
        }
        stats.changed += moved.changed
        stats.removed += moved.removed
        if (last) {
          const [, waiting] = await Promise.all([
            ctx.db.meta.put({ key: META.lastSyncedAt, value: ctx.now() }),
            dropCaughtUp(ctx.db, applied, ctx.now()),
          ])
          stats.waiting = waiting
        }
      })
      if (clear) fromNothing = true
      ctx.run.progress()
      stats.pages += 1
      if (last) return { ...stats, cursor: page.cursor }
      cursor = page.cursor
      // The first page of a sync from nothing is what a new device's screens are waiting for:
      // they read it before the next page's transaction, which IndexedDB would run first.
      if (clear) await screensFirst()
    }
  } finally {
    ahead.close()
  }
}
