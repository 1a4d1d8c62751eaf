import { SYNC_KEY } from '../../../../shared/sync.ts'
import type { OutboxRow, SyncDb } from './db.ts'
import { syncedRow } from './packs.ts'

/**
 * When an applied mutation may leave the outbox: once the synced row shows
 * its effect. A pull that began after the answer usually shows it, but not
 * always: the server's watermark holds back changes while an older
 * transaction anywhere in the cluster is still open (decision 0007). Until
 * the synced row shows the answer, the optimistic change stays (no flicker
 * back to the old state); once CATCH_UP_PULLS complete pulls and CATCH_UP_MS
 * have passed it goes anyway, so a row that left the view, or changed again
 * since, cannot pin it.
 */
export const CATCH_UP_PULLS = 3
export const CATCH_UP_MS = 30_000

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]))
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => deepEqual(a[k], b[k]))
  }
  return false
}

/**
 * Whether a synced row shows a 2xx answer: it has every field of the answer
 * as answered, or it was updated after the answer.
 */
export function isReflected(answer: unknown, synced: unknown): boolean {
  if (!isObject(answer)) return true
  if (!isObject(synced)) return false
  const was = typeof answer.updatedAt === 'string' ? Date.parse(answer.updatedAt) : Number.NaN
  const is = typeof synced.updatedAt === 'string' ? Date.parse(synced.updatedAt) : Number.NaN
  if (is > was) return true
  return Object.entries(answer).every(([key, value]) => deepEqual(value, synced[key]))
}

/** The key of the synced row an answer is about, if any. */
function rowKeyOf(row: OutboxRow): string | undefined {
  if (!row.confirmIn) return undefined
  if (row.confirmIn === 'preferences') return 'me'
  if (row.confirmIn === 'settings') return 'programme'
  const key = (row.answer as Record<string, unknown> | null)?.[SYNC_KEY[row.confirmIn]]
  return typeof key === 'string' ? key : undefined
}

/** The synced row an answer is about, if any. */
async function syncedRowOf(db: SyncDb, row: OutboxRow): Promise<unknown> {
  const key = rowKeyOf(row)
  if (!row.confirmIn || key === undefined) return undefined
  if (row.confirmIn === 'preferences') return db.preferences.get('me')
  if (row.confirmIn === 'settings') return db.settings.get('programme')
  // A first sync (or one that started again) stored topics, feedback and people in packs.
  return syncedRow(db, row.confirmIn, key)
}

/**
 * After a complete pull (inside its last page's transaction): drops the
 * applied mutations of `seqs` whose effect the synced rows now show, with
 * their overlay, in the same transaction, so a screen never sees both.
 * A mutation is also caught up when a later one on the same row is: a push
 * applies up to 50 mutations in one transaction, whose now() they share, so
 * a topic created and edited in one push carries the edit's fields with the
 * create's `updatedAt`, and the create's answer is never shown as such.
 * Answers how many applied mutations still wait.
 */
export async function dropCaughtUp(
  db: SyncDb,
  seqs: readonly number[],
  now: number,
): Promise<number> {
  // Nothing applied is waiting (a pull nothing was pushed before): no read at all.
  if (seqs.length === 0) return 0
  let waiting = 0
  const rows = (await db.outbox.bulkGet([...seqs])).filter((row) => row?.status === 'applied')
  // Latest first: a row a later mutation shows caught up covers the earlier ones on it.
  rows.sort((a, b) => (b?.seq ?? 0) - (a?.seq ?? 0))
  const shown = new Set<string>()
  for (const row of rows) {
    if (!row) continue
    const pulls = (row.pullsSinceApplied ?? 0) + 1
    const givenUp = pulls >= CATCH_UP_PULLS && now - (row.appliedAt ?? 0) >= CATCH_UP_MS
    const rowKey = rowKeyOf(row)
    const key = row.confirmIn && rowKey !== undefined ? `${row.confirmIn}:${rowKey}` : undefined
    const done =
      !row.confirmIn ||
      givenUp ||
      (key !== undefined && shown.has(key)) ||
      isReflected(row.answer, await syncedRowOf(db, row))
    if (done && key !== undefined && !givenUp) shown.add(key)
    if (done) {
      await db.outbox.delete(row.seq as number)
      await db.overlay.where('mutationId').equals(row.id).delete()
    } else {
      await db.outbox.update(row.seq as number, { pullsSinceApplied: pulls })
      waiting += 1
    }
  }
  return waiting
}
