import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import type { PullResponse } from '../../../../shared/sync.ts'
import { topicRow, userRow } from '../testing/fixtures.ts'
import { createSyncDb, type SyncDb, type SyncFeedback, type SyncTopic } from './db.ts'
import { applyPage } from './page.ts'
import {
  readFeedbackOfTopic,
  readMentorTopics,
  readNewestTopics,
  readRow,
  readTable,
  readTopicsOfMentor,
  readUserByUsername,
} from './view.ts'

// A first sync stores topics, feedback and users as one record per pull page
// (packs.ts, decision 0058); the pulls after it store rows one per record,
// which win over the packed copies, and removals that hide them. Every read a
// screen makes answers the same rows either way.

const dbs: SyncDb[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close()
    await db.delete()
  }
})

function newDb(): SyncDb {
  const db = createSyncDb(`packs-${randomUUID()}`)
  dbs.push(db)
  return db
}

type Lists = {
  topics?: SyncTopic[]
  feedback?: SyncFeedback[]
  users?: ReturnType<typeof userRow>[]
}

function pageOf(changes: Lists, removed: { topics?: string[] } = {}, cursor = 'c'): PullResponse {
  const empty = () => ({
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
    changes: { ...empty(), ...changes, preferences: null, settings: null },
    removed: { ...empty(), ...removed },
    cursor,
    hasMore: true,
    reset: false,
  } as PullResponse
}

function feedbackRow(topicId: string, overrides: Partial<SyncFeedback> = {}): SyncFeedback {
  return {
    id: randomUUID(),
    topicId,
    authorId: randomUUID(),
    authorRole: 'mentee',
    rating: 5,
    comment: 'Worth it',
    createdAt: '2026-01-01T00:00:00.000Z',
    version: 1,
    ...overrides,
  } as SyncFeedback
}

const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString()
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort()

/** A first sync of two pages: topics 0–3 of `mentor` (0 and 1 on the first page), feedback, users. */
async function firstSync(db: SyncDb) {
  const mentor = userRow({ username: 'Ada.Mentor' })
  const other = userRow()
  const topics = [0, 1, 2, 3].map((i) =>
    topicRow(mentor, { subject: `Topic ${i}`, createdAt: at(i) }),
  )
  const [t0, t1, t2, t3] = topics as [SyncTopic, SyncTopic, SyncTopic, SyncTopic]
  const said = feedbackRow(t2.id)
  await applyPage(db, pageOf({ topics: [t0, t1], users: [mentor] }), true, false)
  await applyPage(db, pageOf({ topics: [t2, t3], feedback: [said], users: [other] }), false, true)
  return { mentor, other, topics, t0, t1, t2, t3, said }
}

describe('a first sync stored in packs', () => {
  it('stores one record per page and table, and reads every row as before', async () => {
    const db = newDb()
    const { mentor, other, topics, t2, t3, said } = await firstSync(db)
    expect(await db.topics.count()).toBe(0)
    expect(await db.users.count()).toBe(0)
    // Page one: topics, users; page two: topics, feedback, users.
    expect(await db.packs.count()).toBe(5)
    expect(ids(await readTable(db, 'topics'))).toEqual(ids(topics))
    expect(ids(await readTable(db, 'users'))).toEqual(ids([mentor, other]))
    expect((await readRow(db, 'topics', t2.id))?.subject).toBe('Topic 2')
    expect(ids(await readTopicsOfMentor(db, mentor.id))).toEqual(ids(topics))
    expect((await readMentorTopics(db, mentor.id)).map((t) => t.topic.id)).toHaveLength(4)
    expect(ids(await readFeedbackOfTopic(db, t2.id))).toEqual([said.id])
    expect((await readUserByUsername(db, 'ada.mentor'))?.id).toBe(mentor.id)
    expect((await readNewestTopics(db, 2)).map((t) => t.id)).toEqual([t3.id, t2.id])
  })

  it('reads a row changed during the first sync as its last page has it', async () => {
    const db = newDb()
    const mentor = userRow()
    const topic = topicRow(mentor, { subject: 'Before' })
    const gone = topicRow(mentor)
    await applyPage(db, pageOf({ topics: [topic, gone] }), true, false)
    await applyPage(
      db,
      pageOf({ topics: [{ ...topic, subject: 'After', version: 2 }] }, { topics: [gone.id] }),
      false,
      true,
    )
    expect((await readTable(db, 'topics')).map((t) => t.subject)).toEqual(['After'])
    expect(await readRow(db, 'topics', gone.id)).toBeUndefined()
  })

  it('lets a later pull change a packed row, even out of what it was found by', async () => {
    const db = newDb()
    const { mentor, t1, topics } = await firstSync(db)
    const heir = userRow()
    const moved = { ...t1, mentorId: heir.id, subject: 'Handed over', version: 2 }
    await applyPage(db, pageOf({ topics: [moved] }), false, false)
    expect(await db.topics.count()).toBe(1)
    expect((await readRow(db, 'topics', t1.id))?.subject).toBe('Handed over')
    expect(ids(await readTopicsOfMentor(db, mentor.id))).toEqual(
      ids(topics.filter((t) => t.id !== t1.id)),
    )
    expect(ids(await readTopicsOfMentor(db, heir.id))).toEqual([t1.id])
    const all = await readTable(db, 'topics')
    expect(all.filter((t) => t.id === t1.id).map((t) => t.subject)).toEqual(['Handed over'])
    expect(all).toHaveLength(4)
  })

  it('hides a packed row a later pull removes, and shows it again when it comes back', async () => {
    const db = newDb()
    const { mentor, t3 } = await firstSync(db)
    await applyPage(db, pageOf({}, { topics: [t3.id] }), false, false)
    expect(await readRow(db, 'topics', t3.id)).toBeUndefined()
    expect((await readTable(db, 'topics')).map((t) => t.id)).not.toContain(t3.id)
    expect((await readTopicsOfMentor(db, mentor.id)).map((t) => t.id)).not.toContain(t3.id)
    expect((await readNewestTopics(db, 1)).map((t) => t.subject)).toEqual(['Topic 2'])
    await applyPage(db, pageOf({ topics: [{ ...t3, version: 3 }] }), false, false)
    expect((await readRow(db, 'topics', t3.id))?.version).toBe(3)
    expect((await readNewestTopics(db, 1)).map((t) => t.id)).toEqual([t3.id])
  })

  it('reads the packs a later first sync wrote, not the ones it cleared', async () => {
    const db = newDb()
    const { t0 } = await firstSync(db)
    // Read (and decoded) once, then the pull starts again with as many pages.
    expect(await readTable(db, 'topics')).toHaveLength(4)
    const mentor = userRow()
    const fresh = [0, 1, 2, 3].map((i) => topicRow(mentor, { subject: `New ${i}` }))
    await applyPage(db, pageOf({ topics: fresh.slice(0, 2), users: [mentor] }), true, false)
    await applyPage(db, pageOf({ topics: fresh.slice(2), users: [userRow()] }), false, true)
    expect(await db.packs.count()).toBe(4)
    expect(ids(await readTable(db, 'topics'))).toEqual(ids(fresh))
    expect(await readRow(db, 'topics', t0.id)).toBeUndefined()
    expect(await db.gone.count()).toBe(0)
  })

  it('reads the pages a first sync adds after a read, with the ones before', async () => {
    const db = newDb()
    const mentor = userRow()
    const first = topicRow(mentor, { createdAt: at(1) })
    await applyPage(db, pageOf({ topics: [first] }), true, false)
    expect(ids(await readTable(db, 'topics'))).toEqual([first.id])
    const next = topicRow(mentor, { createdAt: at(2) })
    await applyPage(db, pageOf({ topics: [next] }), false, true)
    expect(ids(await readTable(db, 'topics'))).toEqual(ids([first, next]))
    expect((await readNewestTopics(db, 1)).map((t) => t.id)).toEqual([next.id])
    expect(ids(await readTopicsOfMentor(db, mentor.id))).toEqual(ids([first, next]))
  })

  it('reads a device synced before the packs, one row per record, as before', async () => {
    const db = newDb()
    const mentor = userRow({ username: 'Old.Timer' })
    const topic = topicRow(mentor)
    await db.users.put(mentor)
    await db.topics.put(topic)
    await db.feedback.put(feedbackRow(topic.id))
    // A delta pull on such a device writes rows one per record too.
    await applyPage(
      db,
      pageOf({ topics: [{ ...topic, subject: 'Renamed', version: 2 }] }),
      false,
      false,
    )
    expect(await db.packs.count()).toBe(0)
    expect((await readRow(db, 'topics', topic.id))?.subject).toBe('Renamed')
    expect((await readUserByUsername(db, 'old.timer'))?.id).toBe(mentor.id)
    expect(await readFeedbackOfTopic(db, topic.id)).toHaveLength(1)
    expect(await readTable(db, 'topics')).toHaveLength(1)
  })
})
