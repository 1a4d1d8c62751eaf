import { randomUUID } from 'node:crypto'
import Dexie from 'dexie'
import { afterEach, describe, expect, it } from 'vitest'
import { applicationRow, topicRow, userRow } from '../testing/fixtures.ts'
import {
  createSyncDb,
  declaredVersions,
  SCHEMA_VERSION,
  SCHEMA_VERSIONS,
  type SyncDb,
} from './db.ts'
import { readRow } from './view.ts'

// The upgrade path: a database written by an older version of the app opens
// under the current schema with its data (queued changes above all) intact.

const mentor = userRow({ username: 'upgrade-mentor' })
const topic = topicRow(mentor)
const application = applicationRow(topic, mentor)

/** One row in every table, as the app of that schema version wrote it. */
async function writeVersion1(db: SyncDb): Promise<void> {
  await db.users.put(mentor)
  await db.topics.put(topic)
  await db.applications.put(application)
  await db.interests.put({ name: 'Rust', version: 1 })
  // The shape version 1 wrote (the four switches only).
  await db.table('preferences').put({
    key: 'me',
    emailNotifications: {
      newApplications: false,
      topicStatusUpdates: true,
      applicationStatusUpdates: true,
      newTopicsForReview: true,
    },
  })
  const seq = await db.outbox.add({
    id: 'queued-1',
    kind: 'start-topic',
    method: 'POST',
    path: `/api/topics/${topic.id}/start`,
    label: 'Start',
    targets: [{ table: 'topics', rowId: topic.id }],
    confirmIn: 'topics',
    awaitingConfirmation: false,
    createdAt: 1,
    status: 'sent',
    attempts: 1,
    firstSentAt: 2,
  })
  await db.overlay.put({
    mutationId: 'queued-1',
    seq,
    table: 'topics',
    rowId: topic.id,
    op: { set: { status: 'started' } },
    awaitingConfirmation: false,
  })
  await db.meta.put({ key: 'cursor', value: 'cursor-1' })
}

/** What every later version must still read from a version-1 database. */
async function expectVersion1Data(db: SyncDb, from: number): Promise<void> {
  expect(await db.users.get(mentor.id)).toEqual(mentor)
  expect(await db.applications.where('topicId').equals(topic.id).toArray()).toEqual([application])
  expect(await db.outbox.where('status').equals('sent').toArray()).toMatchObject([
    { id: 'queued-1', attempts: 1, firstSentAt: 2 },
  ])
  // Before versions 3 and 4 the cursor goes: rows gained fields a delta pull would not bring.
  expect(await db.meta.get('cursor')).toEqual(
    from < 4 ? undefined : { key: 'cursor', value: 'cursor-1' },
  )
  expect(await readRow(db, 'topics', topic.id)).toMatchObject({
    status: 'started',
    sync: { pending: true, mutations: ['queued-1'] },
  })
  expect((await readRow(db, 'preferences', 'me'))?.emailNotifications.newApplications).toBe(false)
}

/** Writers for every schema version: add one with each new version. */
const FIXTURES: Record<number, (db: SyncDb) => Promise<void>> = {
  1: writeVersion1,
  // Version 2 only indexes topics by createdAt: the same rows.
  2: writeVersion1,
  // Version 3 adds matching's tables.
  3: writeVersion3,
  // Version 4 only drops the cursor (follow-through fields): the same rows.
  4: writeVersion3,
  // Version 5 only indexes applications by their topic's mentor: the same rows.
  5: writeVersion3,
  // Version 6 adds the packs of a first sync and the removals after it: a database synced
  // before has none, and reads its rows one per record as before.
  6: writeVersion3,
}

async function writeVersion3(db: SyncDb): Promise<void> {
  await writeVersion1(db)
  await db.dismissals.put({
    topicId: topic.id,
    dismissed: true,
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 1,
  })
}

const opened: SyncDb[] = []
afterEach(async () => {
  const dbs = opened.splice(0)
  for (const db of dbs) db.close()
  for (const db of dbs) await db.delete()
})

function open(name: string, upTo?: number, extra?: Parameters<typeof createSyncDb>[3]): SyncDb {
  const db = createSyncDb(name, {}, upTo, extra)
  opened.push(db)
  return db
}

describe('schema upgrades', () => {
  it('has a fixture for every version', () => {
    expect(Object.keys(FIXTURES).map(Number)).toEqual(SCHEMA_VERSIONS.map((v) => v.version))
  })

  for (const { version } of SCHEMA_VERSIONS) {
    it(`opens a version ${version} database under the current schema with its data`, async () => {
      const name = `upgrade-${randomUUID()}`
      const old = open(name, version)
      await (FIXTURES[version] as (db: SyncDb) => Promise<void>)(old)
      expect(old.verno).toBe(version)
      old.close()

      const current = open(name)
      await current.open()
      expect(current.verno).toBe(SCHEMA_VERSION)
      await expectVersion1Data(current, version)
      expect(await current.topics.orderBy('createdAt').primaryKeys()).toEqual([topic.id])
      expect(
        await current.applications.where('topic.mentor.id').equals(mentor.id).primaryKeys(),
      ).toEqual([application.id])
    })
  }

  it('carries the current data through a later version with an upgrade step', async () => {
    // What the next version will look like: a new index and a data migration.
    const name = `upgrade-${randomUUID()}`
    const current = open(name)
    await writeVersion1(current)
    current.close()

    const next = open(name, SCHEMA_VERSION, [
      {
        version: SCHEMA_VERSION + 1,
        stores: { topics: 'id, status, mentorId, createdAt, subject' },
        upgrade: (tx) =>
          tx
            .table('topics')
            .toCollection()
            .modify((t: { subject: string }) => {
              t.subject = t.subject.trim()
            }),
      },
    ])
    await next.open()
    expect(next.verno).toBe(SCHEMA_VERSION + 1)
    await expectVersion1Data(next, SCHEMA_VERSION)
    expect(await next.topics.where('subject').equals(topic.subject).count()).toBe(1)
  })
})

describe('the versions Dexie is told of', () => {
  it('are those with an upgrade step and the last, each with the changes left out before it', () => {
    const step = () => undefined
    const declared = declaredVersions([
      { version: 1, stores: { a: 'id', b: 'id' } },
      { version: 2, stores: { a: 'id, x' } },
      { version: 3, stores: { c: 'id' }, upgrade: step },
      { version: 4, stores: { b: null } },
      { version: 5, stores: { d: 'id' } },
    ])
    expect(declared).toEqual([
      { version: 3, stores: { a: 'id, x', b: 'id', c: 'id' }, upgrade: step },
      { version: 5, stores: { b: null, d: 'id' } },
    ])
  })

  it('leave the schema as every version declared would make it', async () => {
    const db = open(`declared-${randomUUID()}`)
    await db.open()
    const full = new Dexie(`full-${randomUUID()}`)
    for (const v of SCHEMA_VERSIONS) full.version(v.version).stores(v.stores)
    await full.open()
    const shape = (d: Dexie) =>
      d.tables
        .map(
          (t) =>
            `${t.name}: ${[t.schema.primKey.src, ...t.schema.indexes.map((i) => i.src)].join(', ')}`,
        )
        .sort()
    expect(shape(db)).toEqual(shape(full))
    expect(db.verno).toBe(full.verno)
    full.close()
    await full.delete()
  })
})

describe('durability', () => {
  /** The durability IndexedDB was asked for by a write transaction of `db`. */
  async function durabilityOf(db: SyncDb): Promise<unknown> {
    try {
      return await db.transaction('rw', db.meta, async () => {
        await db.meta.put({ key: 'probe', value: 1 })
        const current = Dexie.currentTransaction as unknown as { idbtrans: IDBTransaction }
        return current.idbtrans.durability
      })
    } finally {
      db.close()
      await db.delete()
    }
  }

  it('is strict for the app (a queued change survives a crash), relaxed only when asked', async () => {
    expect(await durabilityOf(createSyncDb(`durability-${randomUUID()}`))).toBe('strict')
    expect(
      await durabilityOf(createSyncDb(`durability-${randomUUID()}`, { durability: 'relaxed' })),
    ).toBe('relaxed')
  })
})
