import Dexie, { type PromiseExtended, type Table } from 'dexie'
import type { SyncTable } from '../../../../shared/sync.ts'
import type { SyncDb } from './db.ts'

/**
 * Packed tables (issue 14, decision 0058). IndexedDB's cost is per record:
 * a first sync at company scale stores some 21,000 rows, and putting them one
 * per record took the browser longer than downloading them twice over. So a
 * pull from nothing stores the rows of the tables below as one record per
 * pull page and table (`packs`), and the pulls after it store their rows one
 * per record in the table itself, as every pull did before. A row of the
 * table itself wins over a packed one (it came later); a row removed after
 * the first sync is recorded in `gone`, which hides the packed copy. A pull
 * that starts again clears all three.
 *
 * The packs are decoded once per context and kept while they stay the same
 * (they only change during a first sync): a read asks for the packs' keys,
 * and reads them again only when those changed. A device synced before the
 * packs has none and reads its rows one per record, as before.
 *
 * What the tables' indexes answered for the packed rows (a mentor's topics,
 * a topic's feedback, a username, the newest topics) the decoded packs
 * answer from maps built on first use.
 */

const PACKED_TABLES = ['topics', 'users', 'feedback'] as const
type PackedTable = (typeof PACKED_TABLES)[number]

export function isPacked(table: string): table is PackedTable {
  return (PACKED_TABLES as readonly string[]).includes(table)
}

type Row = Record<string, unknown>

/** A packed table as its packs leave it: by id, and by a field or newest first on demand. */
type Unpacked = {
  /** The packs' keys (the key generator never goes back, even after a clear). */
  seqs: number[]
  byId: Map<string, Row>
  byField: Map<string, Map<unknown, Row[]>>
  newest?: Row[]
}

const unpacked = new WeakMap<SyncDb, Map<string, Unpacked>>()

const EMPTY: Unpacked = Object.freeze({ seqs: [], byId: new Map(), byField: new Map() }) as Unpacked

/** Whether `known` is where `seqs` began: the packs since are new ones, appended. */
function isPrefix(known: number[], seqs: number[]): boolean {
  return known.length <= seqs.length && known.every((seq, i) => seqs[i] === seq)
}

/**
 * The rows the packs of `table` hold, as of the calling transaction (which
 * must cover `packs`). One request when they are already decoded here; while
 * a first sync writes pages, only the packs written since are read.
 */
function unpack(db: SyncDb, table: PackedTable): PromiseExtended<Unpacked> {
  return db.packs
    .where('table')
    .equals(table)
    .primaryKeys()
    .then((keys) => {
      const seqs = keys.sort((x, y) => x - y)
      if (seqs.length === 0) return EMPTY
      let ofDb = unpacked.get(db)
      if (!ofDb) {
        ofDb = new Map()
        unpacked.set(db, ofDb)
      }
      const known = ofDb.get(table)
      if (known && known.seqs.length === seqs.length && isPrefix(known.seqs, seqs)) return known
      const from = known && isPrefix(known.seqs, seqs) ? known : undefined
      const into = ofDb
      return db.packs.bulkGet(seqs.slice(from?.seqs.length ?? 0)).then((packs) => {
        // A new map: a read still holding the last one keeps what its transaction saw.
        const byId = new Map(from?.byId)
        for (const pack of packs) {
          if (!pack) continue
          for (const id of pack.removed) byId.delete(id)
          for (const row of pack.rows) byId.set(String(row.id), row)
        }
        const fresh: Unpacked = { seqs, byId, byField: new Map() }
        into.set(table, fresh)
        return fresh
      })
    })
}

/** The packed rows whose `field` (lower-cased with `fold`) is `value`. */
function packedWhere(packed: Unpacked, field: string, fold: boolean, value: unknown): Row[] {
  const name = fold ? `${field}/folded` : field
  let index = packed.byField.get(name)
  if (!index) {
    index = new Map()
    for (const row of packed.byId.values()) {
      const raw = row[field]
      const key = fold && typeof raw === 'string' ? raw.toLowerCase() : raw
      const list = index.get(key)
      if (list) list.push(row)
      else index.set(key, [row])
    }
    packed.byField.set(name, index)
  }
  return index.get(fold && typeof value === 'string' ? value.toLowerCase() : value) ?? []
}

/** The stores a read of packed `table` needs in its transaction besides the table. */
export function packStores(db: SyncDb, table: string): Table[] {
  return isPacked(table) ? [db.packs, db.gone, db.table(table)] : [db.table(table)]
}

function goneIds(db: SyncDb, table: PackedTable): PromiseExtended<Set<string>> {
  return db.gone
    .where('table')
    .equals(table)
    .primaryKeys()
    .then((keys) => new Set(keys.map((key) => key[1])))
}

/**
 * The keys of `table`'s own rows: the rows pulled after its first sync, which
 * replace their packed copies. Few on a device that packed its first sync.
 */
function ownKeys(db: SyncDb, table: PackedTable): PromiseExtended<Set<string>> {
  return db
    .table(table)
    .toCollection()
    .primaryKeys()
    .then((keys) => new Set(keys as string[]))
}

/**
 * `ownKeys`, asked for with a read's other requests where this context has
 * seen the table's packs already: one round trip to IndexedDB, not two (a new
 * application on a mentor's dashboard waits for it).
 */
function ownKeysIfPacked(db: SyncDb, table: PackedTable): PromiseExtended<Set<string> | null> {
  return (unpacked.get(db)?.get(table)?.seqs.length ?? 0) > 0
    ? ownKeys(db, table)
    : Dexie.Promise.resolve(null)
}

// Every read below is a chain of Dexie's promises, never a native `await`: a read
// called inside a transaction (a change's checks, a read that reads another) then
// keeps the transaction for whatever its caller asks for next. After a native
// await of nested async functions Dexie may lose track of the transaction, the next
// request opens one of its own, and the first commits too early.

/** Every synced row of `table`: its own rows, then the packed ones neither replaced nor removed. */
export function syncedRows<T>(db: SyncDb, table: SyncTable): PromiseExtended<T[]> {
  const own = db.table(table).toArray() as PromiseExtended<T[]>
  if (!isPacked(table)) return own
  return Dexie.Promise.all([own, unpack(db, table), goneIds(db, table)]).then(
    ([rows, packed, gone]) => {
      if (packed.byId.size === 0) return rows
      const held = new Set(rows.map((r) => String((r as Row).id)))
      const out = rows.slice()
      for (const [id, row] of packed.byId) {
        if (!held.has(id) && !gone.has(id)) out.push(row as T)
      }
      return out
    },
  )
}

/** One synced row of `table` by id, or undefined. */
export function syncedRow<T>(
  db: SyncDb,
  table: string,
  id: string,
): PromiseExtended<T | undefined> {
  const own = db.table(table).get(id) as PromiseExtended<T | undefined>
  if (!isPacked(table)) return own
  return Dexie.Promise.all([own, unpack(db, table), db.gone.get([table, id])]).then(
    ([row, packed, gone]) => {
      if (row !== undefined) return row
      return gone ? undefined : (packed.byId.get(id) as T | undefined)
    },
  )
}

/**
 * The synced rows of `table` whose indexed `field` is `value` (`fold`: case
 * does not matter): its own rows through the index, and the packed ones not
 * replaced (whatever the replacing row's field) nor removed.
 */
export function syncedWhere<T>(
  db: SyncDb,
  table: SyncTable,
  field: string,
  value: string,
  fold = false,
): PromiseExtended<T[]> {
  const clause = db.table(table).where(field)
  const own = (
    fold ? clause.equalsIgnoreCase(value) : clause.equals(value)
  ).toArray() as PromiseExtended<T[]>
  if (!isPacked(table)) return own
  return Dexie.Promise.all([
    own,
    unpack(db, table),
    goneIds(db, table),
    ownKeysIfPacked(db, table),
  ]).then(([rows, packed, gone, early]) => {
    const candidates = packedWhere(packed, field, fold, value).filter(
      (row) => !gone.has(String(row.id)),
    )
    if (candidates.length === 0) return rows
    // A packed row replaced by one of the table's own no longer counts, even if it moved away.
    return (early ? Dexie.Promise.resolve(early) : ownKeys(db, table)).then((replaced) => [
      ...rows,
      ...(candidates.filter((row) => !replaced.has(String(row.id))) as T[]),
    ])
  })
}

/**
 * Newest first by `createdAt`, an ISO 8601 time in one format: compared by code unit,
 * which orders those as time does. Not localeCompare: the same order, but its first
 * call loads ICU's collation data (50-80 ms on a slow host), and a cold start sorts
 * topics before its first card.
 */
export const byNewest = (a: object, b: object): number => {
  const x = String((a as { createdAt?: unknown }).createdAt)
  const y = String((b as { createdAt?: unknown }).createdAt)
  return x < y ? 1 : x > y ? -1 : 0
}

/**
 * The newest `limit` synced rows of `table` by `createdAt` (a list's first
 * screen): its own through the index, and the packed ones neither replaced
 * nor removed. Not sorted.
 */
export function syncedNewest<T>(db: SyncDb, table: SyncTable, limit: number): PromiseExtended<T[]> {
  const own = db
    .table(table)
    .orderBy('createdAt')
    .reverse()
    .limit(limit)
    .toArray() as PromiseExtended<T[]>
  if (!isPacked(table)) return own
  return Dexie.Promise.all([
    own,
    unpack(db, table),
    goneIds(db, table),
    ownKeysIfPacked(db, table),
  ]).then(([rows, packed, gone, early]) => {
    if (packed.byId.size === 0) return rows
    packed.newest ??= [...packed.byId.values()].sort(byNewest)
    const newest = packed.newest
    return (early ? Dexie.Promise.resolve(early) : ownKeys(db, table)).then((replaced) => {
      const out = rows.slice()
      let taken = 0
      for (const row of newest) {
        if (taken === limit) break
        const id = String(row.id)
        if (replaced.has(id) || gone.has(id)) continue
        out.push(row as T)
        taken += 1
      }
      return out
    })
  })
}
