import {
  PULL_LIMIT_DEFAULT,
  type PullResponse,
  pullResponseSchema,
  SYNC_KEY,
  SYNC_TABLES,
} from '../../../../shared/sync.ts'
import type { Answer } from '../../lib/http.ts'
import { META, PULLED_STORES, type SyncDb } from './db.ts'
import { isPacked } from './packs.ts'

/**
 * A pull's pages: where each is asked for, the read-ahead that asks for the
 * next ones while one is written, and the writing of one page. Used by the
 * pull (pull.ts) and by the worker that writes a first sync's pages
 * (page-writer.ts), so it imports nothing of the flush.
 */

/** The path of one pull page from `cursor` (undefined: from the beginning), in pages of `limit`. */
export function pullPath(cursor: string | undefined, limit: number): string {
  const params = new URLSearchParams()
  if (cursor !== undefined) params.set('cursor', cursor)
  if (limit < PULL_LIMIT_DEFAULT) params.set('limit', String(limit))
  const query = params.toString() === '' ? '' : `?${params}`
  return `/api/sync/pull${query}`
}

const parsedPages = new WeakMap<object, PullResponse>()

/**
 * A pull answer's body checked as a page, or null. Remembered per body: a
 * new device's first page is checked once, when it is answered (to be shown
 * before it is written, early-page.ts), not again when it is written.
 */
export function parsePage(body: unknown): PullResponse | null {
  const known = typeof body === 'object' && body !== null ? parsedPages.get(body) : undefined
  if (known) return known
  const parsed = pullResponseSchema.safeParse(body)
  if (!parsed.success) return null
  if (typeof body === 'object' && body !== null) parsedPages.set(body, parsed.data)
  return parsed.data
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
 * `depth` beyond the one taken (none: one page at a time). `take(cursor)` answers the page from
 * `cursor`: the one asked ahead, or a new request if the chain went elsewhere.
 */
export function readAhead(
  ask: (cursor: string | undefined) => Promise<Answer>,
  depth: number = READ_AHEAD,
) {
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
    if (!open || !tail?.came || tail.followed || queue.length >= depth) return
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
 * not read (see pullToEnd). A page of a pull from nothing (`clear` or
 * `unheld`) stores each packed table's rows as one record (packs.ts); a later
 * page stores them one per record, and records their removals in `gone`.
 */
export async function applyPage(
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
  if (clear) for (const table of PULLED_STORES) writes.push(db.table(table).clear())
  const packing = clear || unheld
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
    if (packing && isPacked(table)) {
      // Nothing before this pull is held: the page's rows and removals, as they come, in one record.
      if (rows.length > 0 || ids.length > 0) {
        writes.push(db.packs.add({ table, rows, removed: ids }))
      }
      changed += rows.length
      removed += ids.length
      continue
    }
    if (ids.length > 0) {
      writes.push(db.table(table).bulkDelete(ids))
      // A removed row may be in a first sync's pack: hidden there from now on.
      if (isPacked(table)) writes.push(db.gone.bulkPut(ids.map((id) => ({ table, id }))))
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
