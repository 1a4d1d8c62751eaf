import type { Actor } from '../../shared/decision.ts'
import { type PullResponse, SYNC_TABLES } from '../../shared/sync.ts'
import type { Db, Sql } from '../db/connect.ts'
import { ApiError } from '../http/errors.ts'
import { type Cursor, decodeCursor, encodeCursor, initialCursor } from './cursor.ts'
import {
  feedbackOfTopics,
  type Removal,
  readPreferences,
  readRemovals,
  readSettings,
} from './removals.ts'
import { type Pass, TABLE_READERS } from './tables.ts'
import { readBounds } from './watermark.ts'

/**
 * How long `sync_removals` entries are kept (housekeeping sweeps older ones).
 * A cursor whose watermark is older than this, less a day for transactions
 * that were running then, might miss a removal: it starts again (`reset`).
 */
export const REMOVAL_RETENTION_DAYS = 90
const CURSOR_MAX_AGE_MS = (REMOVAL_RETENTION_DAYS - 1) * 24 * 60 * 60 * 1000

type Stage = {
  read: (
    db: Db,
    pass: Pass,
    after: string | undefined,
    limit: number,
  ) => Promise<{ key: string; row: unknown }[]>
  add: (page: PullResponse, rows: unknown[]) => void
}

/** A pass sends the tables in this order, then the removals. */
const STAGES: Stage[] = [
  ...SYNC_TABLES.map(
    (table): Stage => ({
      read: TABLE_READERS[table],
      add: (page, rows) => {
        ;(page.changes[table] as unknown[]).push(...rows)
      },
    }),
  ),
  {
    read: readRemovals,
    add: (page, rows) => {
      for (const r of rows as Removal[]) page.removed[r.tbl].push(r.rowId)
    },
  },
]

function emptyPage(): PullResponse {
  const lists = () => ({
    topics: [],
    applications: [],
    feedback: [],
    notifications: [],
    users: [],
    interests: [],
    dismissals: [],
    invitations: [],
  })
  return {
    changes: { ...lists(), preferences: null, settings: null },
    removed: lists(),
    cursor: '',
    hasMore: false,
    reset: false,
  }
}

/**
 * One page of GET /api/sync/pull for `viewer`: up to `limit` rows changed
 * since the cursor, what left the viewer's view, and the next cursor.
 *
 * The watermark X of a pass is the oldest transaction still running when the
 * pass begins (watermark.ts): every transaction below it has finished, so
 * the rows of [W, X) are final, and a transaction still running is in a
 * later pass whatever its sequence numbers. No row is skipped when
 * transactions commit out of order; a transaction of this database open for
 * long delays every client's changes until it ends (one of another database
 * of the cluster does not).
 */
export async function pullPage(
  sql: Sql,
  viewer: Actor,
  query: { cursor?: string | undefined; limit: number },
): Promise<PullResponse> {
  return sql.begin('isolation level repeatable read read only', async (tx) => {
    const xmin = (await readBounds(tx)).xmin.toString()
    let cursor: Cursor | undefined = query.cursor
      ? decodeCursor(query.cursor, viewer.id)
      : undefined
    if (cursor && BigInt(cursor.x ?? cursor.w) > BigInt(xmin)) {
      // From the future: another database, or one restored from a backup.
      throw new ApiError(400, 'The sync cursor is not valid here. Sync again from the beginning.')
    }
    const page = emptyPage()
    if (cursor && (cursor.a !== viewer.isAdmin || cursor.t < Date.now() - CURSOR_MAX_AGE_MS)) {
      // What the viewer may see changed wholesale, or the cursor is too old to trust.
      cursor = undefined
      page.reset = true
    }
    const start = cursor ?? initialCursor(viewer.id, viewer.isAdmin)
    const to = start.x ?? xmin
    const passStartedAt = start.x ? (start.y ?? Date.now()) : Date.now()
    const pass: Pass = { from: start.w, to, viewer }

    let stage = start.s ?? 0
    let after = start.k
    let budget = query.limit
    // A pull from a cursor that ended a pass (a client following changes, woken by a poke)
    // usually brings a handful of rows: every stage's read, and the preferences and
    // settings, are sent at once and pipelined on the connection, one round trip instead of
    // a dozen. Each stage reads the whole limit; the loop below takes from them in order
    // exactly as it would from reads of the remaining budget (those are prefixes of these).
    // A first sync or a pass under way reads stage by stage: its pages are full.
    const delta = cursor !== undefined && start.x === undefined
    const ahead = delta
      ? {
          stages: STAGES.map((s) => s.read(tx, pass, undefined, query.limit + 1)),
          preferences: readPreferences(tx, pass),
          settings: readSettings(tx, pass),
        }
      : undefined
    // A read that fails fails the transaction where it is awaited; never an unhandled rejection.
    if (ahead)
      for (const read of [...ahead.stages, ahead.preferences, ahead.settings]) read.catch(() => {})
    while (stage < STAGES.length) {
      const current = STAGES[stage] as Stage
      const rows = await (ahead?.stages[stage] ?? current.read(tx, pass, after, budget + 1))
      const taken = rows.slice(0, budget)
      current.add(
        page,
        taken.map((r) => r.row),
      )
      if (rows.length > budget) {
        after = taken.at(-1)?.key ?? after
        page.hasMore = true
        break
      }
      budget -= rows.length
      stage += 1
      after = undefined
    }
    page.removed.feedback.push(...(await feedbackOfTopics(tx, page.removed.topics)))
    // Read ahead but not taken (the page filled first): answered before the transaction ends.
    if (ahead) await Promise.all([...ahead.stages, ahead.preferences, ahead.settings])

    if (page.hasMore) {
      page.cursor = encodeCursor({ ...start, x: to, y: passStartedAt, s: stage, k: after })
    } else {
      page.changes.preferences = await (ahead?.preferences ?? readPreferences(tx, pass))
      page.changes.settings = await (ahead?.settings ?? readSettings(tx, pass))
      page.cursor = encodeCursor({
        ...initialCursor(viewer.id, viewer.isAdmin),
        t: passStartedAt,
        w: to,
      })
    }
    return page
  })
}

/**
 * Whether a pass over [from, to) would send `viewer` anything: one row of
 * each stage at most. The embedded database's poke source (see hub.ts).
 */
export async function hasChanges(
  sql: Sql,
  viewer: Actor,
  from: string,
  to: string,
): Promise<boolean> {
  if (from === to) return false
  const pass: Pass = { from, to, viewer }
  for (const stage of STAGES) {
    if ((await stage.read(sql, pass, undefined, 1)).length > 0) return true
  }
  return (await readPreferences(sql, pass)) !== null || (await readSettings(sql, pass)) !== null
}
