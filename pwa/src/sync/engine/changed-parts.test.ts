import { randomUUID } from 'node:crypto'
import Dexie, { type ObservabilitySet } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { topicRow, userRow } from '../testing/fixtures.ts'
import { touchesRead } from './changed-parts.ts'
import { createSyncDb, type OverlayRow, type SyncDb } from './db.ts'

// Which commits a whole-table read follows (useSyncedCoalesced): its tables'
// own, and the overlay's only for rows of those tables, told from the keys
// Dexie reports for each commit, written here the way the engine writes them.

const MATCHING = ['topics', 'users', 'applications', 'overlay', 'rejected']
const PREFERENCES = ['preferences', 'overlay']

let db: SyncDb
let commits: ObservabilitySet[]
const record = (parts: ObservabilitySet) => {
  if (Object.keys(parts).some((p) => p.startsWith(`idb://${db.name}/`))) commits.push(parts)
}

beforeEach(async () => {
  db = createSyncDb(`changed-parts-${randomUUID()}`)
  await db.open()
  commits = []
  Dexie.on('storagemutated', record)
})

afterEach(async () => {
  Dexie.on('storagemutated').unsubscribe(record)
  db.close()
  await Dexie.delete(db.name)
})

/** The parts of the one commit `write` makes. */
async function commitOf(write: () => Promise<unknown>): Promise<ObservabilitySet> {
  commits = []
  await write()
  // Dexie reports a commit once its transaction has completed.
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(commits).toHaveLength(1)
  return commits[0] as ObservabilitySet
}

function overlayRow(mutationId: string, table: OverlayRow['table'], rowId: string): OverlayRow {
  return { mutationId, seq: 1, table, rowId, op: { set: { x: 1 } }, awaitingConfirmation: false }
}

describe('touchesRead', () => {
  it("counts an overlay change only for a read of the changed rows' tables", async () => {
    // A preferences change queued: its overlay row and its outbox entry, in one transaction.
    const queued = await commitOf(() =>
      db.transaction('rw', db.overlay, db.outbox, async () => {
        await db.overlay.bulkAdd([overlayRow('m1', 'preferences', 'me')])
      }),
    )
    expect(touchesRead(queued, db.name, MATCHING)).toBe(false)
    expect(touchesRead(queued, db.name, PREFERENCES)).toBe(true)
    // Confirmed: its overlay rows deleted by mutation id (push.ts, catch-up.ts).
    const confirmed = await commitOf(() => db.overlay.where('mutationId').equals('m1').delete())
    expect(touchesRead(confirmed, db.name, MATCHING)).toBe(false)
    expect(touchesRead(confirmed, db.name, PREFERENCES)).toBe(true)
  })

  it('counts a change naming one followed table among others', async () => {
    const parts = await commitOf(() =>
      db.overlay.bulkAdd([
        overlayRow('m2', 'preferences', 'me'),
        overlayRow('m2', 'applications', 'a1'),
      ]),
    )
    expect(touchesRead(parts, db.name, MATCHING)).toBe(true)
    expect(touchesRead(parts, db.name, ['topics', 'overlay'])).toBe(false)
  })

  it("counts a followed table's own rows, and not another's or another database's", async () => {
    const mentor = userRow({ username: 'parts-mentor' })
    const parts = await commitOf(() => db.topics.put(topicRow(mentor)))
    expect(touchesRead(parts, db.name, MATCHING)).toBe(true)
    expect(touchesRead(parts, db.name, PREFERENCES)).toBe(false)
    expect(touchesRead(parts, 'another-database', MATCHING)).toBe(false)
  })

  it("counts a first sync's packs and later removals for a read of a packed table only", async () => {
    const mentor = userRow({ username: 'packed-mentor' })
    const packed = await commitOf(() =>
      db.packs.add({ table: 'topics', rows: [topicRow(mentor)], removed: [] }),
    )
    expect(touchesRead(packed, db.name, MATCHING)).toBe(true)
    expect(touchesRead(packed, db.name, PREFERENCES)).toBe(false)
    const gone = await commitOf(() => db.gone.put({ table: 'users', id: mentor.id }))
    expect(touchesRead(gone, db.name, ['users'])).toBe(true)
    expect(touchesRead(gone, db.name, ['notifications'])).toBe(false)
  })

  it('counts an overlay change that names no keys (cleared), and none for a read not following the overlay', async () => {
    await db.overlay.bulkAdd([overlayRow('m3', 'preferences', 'me')])
    const cleared = await commitOf(() => db.overlay.clear())
    expect(touchesRead(cleared, db.name, MATCHING)).toBe(true)
    expect(touchesRead(cleared, db.name, ['topics'])).toBe(false)
  })

  it('counts parts whose shape it does not know', () => {
    const prefix = `idb://${db.name}/overlay/`
    expect(touchesRead({ [`${prefix}table`]: {} } as never, db.name, MATCHING)).toBe(true)
    const plainKey = { from: 'k', to: 'k' }
    expect(touchesRead({ [prefix]: plainKey } as never, db.name, MATCHING)).toBe(true)
  })
})
