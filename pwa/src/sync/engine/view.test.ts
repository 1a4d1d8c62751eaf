import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import type { PullResponse } from '../../../../shared/sync.ts'
import { applicationRow, topicRow, userRow } from '../testing/fixtures.ts'
import { createSyncDb, type SyncDb } from './db.ts'
import { readEarlyPage, readMentorTopics, readNewestTopics, readTable } from './view.ts'

// The first screen's read: the newest topics through the createdAt index,
// merged with their pending changes and with topics created offline, the
// same rows and order as the head of the whole-table read.

const dbs: SyncDb[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close()
    await db.delete()
  }
})

const mentor = userRow()
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString()

describe('readNewestTopics', () => {
  it('answers the newest topics with their pending changes and those created offline', async () => {
    const db = createSyncDb(`view-${randomUUID()}`)
    dbs.push(db)
    const topics = Array.from({ length: 50 }, (_, i) =>
      topicRow(mentor, { subject: `Topic ${i}`, createdAt: at(i) }),
    )
    await db.topics.bulkPut(topics)
    const newest = topics[49]
    const old = topics[3]
    if (!newest || !old) throw new Error('no topics')
    const created = topicRow(mentor, { subject: 'Made on the train', createdAt: at(100) })
    await db.overlay.bulkPut([
      {
        mutationId: 'm1',
        seq: 1,
        table: 'topics',
        rowId: newest.id,
        op: { set: { subject: 'Renamed' } },
        awaitingConfirmation: false,
      },
      {
        mutationId: 'm2',
        seq: 2,
        table: 'topics',
        rowId: old.id,
        op: { set: { subject: 'Old, renamed' } },
        awaitingConfirmation: false,
      },
      {
        mutationId: 'm3',
        seq: 3,
        table: 'topics',
        rowId: created.id,
        op: { create: created },
        awaitingConfirmation: false,
      },
    ])

    const first = await readNewestTopics(db, 5)

    expect(first.map((t) => t.subject)).toEqual([
      'Made on the train',
      'Renamed',
      'Topic 48',
      'Topic 47',
      'Topic 46',
    ])
    expect(first[0]?.sync.created).toBe(true)
    expect(first[1]?.sync.pending).toBe(true)
    // The same as the start of the whole table, read the slow way.
    const all = await readTable(db, 'topics')
    expect(first).toEqual(all.slice(0, 5))
    expect(all.find((t) => t.id === old.id)?.subject).toBe('Old, renamed')
  })
})

describe('readEarlyPage', () => {
  it('answers a first page’s topics newest first and only the user’s own applications', () => {
    const me = userRow()
    const someone = userRow()
    const [older, newer] = [at(1), at(2)].map((createdAt) => topicRow(mentor, { createdAt }))
    if (!older || !newer) throw new Error('no topics')
    const mine = applicationRow(older, me)
    const theirs = applicationRow(newer, someone)
    const none = { topics: [], applications: [], feedback: [], notifications: [], users: [] }
    const page: PullResponse = {
      changes: {
        ...none,
        topics: [older, newer],
        applications: [mine, theirs],
        interests: [],
        dismissals: [],
        invitations: [],
        preferences: null,
        settings: null,
      },
      removed: { ...none, interests: [], dismissals: [], invitations: [] },
      cursor: 'c1',
      hasMore: true,
      reset: false,
    }
    const { topics, applications } = readEarlyPage(page, me.id)
    expect(topics.map((t) => t.id)).toEqual([newer.id, older.id])
    expect(topics.every((t) => !t.sync.pending && t.sync.rejected.length === 0)).toBe(true)
    expect(applications.map((a) => a.id)).toEqual([mine.id])
  })
})

describe('readMentorTopics', () => {
  it('answers the mentor’s topics newest first, each with its applications and their pending changes', async () => {
    const db = createSyncDb(`view-${randomUUID()}`)
    dbs.push(db)
    const other = userRow()
    const mentee = userRow()
    const older = topicRow(mentor, { subject: 'Older', createdAt: at(1) })
    const newer = topicRow(mentor, { subject: 'Newer', createdAt: at(2) })
    const quiet = topicRow(mentor, { subject: 'No applications', createdAt: at(3) })
    const elsewhere = topicRow(other, { subject: 'Someone else’s', createdAt: at(4) })
    await db.topics.bulkPut([older, newer, quiet, elsewhere])
    const first = applicationRow(older, mentee, { createdAt: at(10) })
    const second = applicationRow(older, userRow(), { createdAt: at(11) })
    const onNewer = applicationRow(newer, mentee, { createdAt: at(12) })
    await db.applications.bulkPut([first, second, onNewer, applicationRow(elsewhere, mentee)])
    // Accepted on this device, not yet sent.
    await db.overlay.put({
      mutationId: 'accept',
      seq: 1,
      table: 'applications',
      rowId: first.id,
      op: { set: { status: 'accepted' } },
      awaitingConfirmation: false,
    })

    const read = await readMentorTopics(db, mentor.id)
    expect(read.map((r) => r.topic.subject)).toEqual(['No applications', 'Newer', 'Older'])
    expect(read.map((r) => r.applications.map((a) => a.id))).toEqual([
      [],
      [onNewer.id],
      [second.id, first.id],
    ])
    expect(read[2]?.applications[1]).toMatchObject({
      status: 'accepted',
      sync: { pending: true },
    })
  })
})
