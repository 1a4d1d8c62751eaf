import { afterEach, describe, expect, it } from 'vitest'
import { localContext, topicRow, userRow } from '../testing/fixtures.ts'
import { CATCH_UP_MS, CATCH_UP_PULLS, dropCaughtUp, isReflected } from './catch-up.ts'
import type { OutboxRow } from './db.ts'

const mentor = userRow()

describe('isReflected', () => {
  const answer = { id: 't', subject: 'New', mentor: { id: 'm' }, updatedAt: '2025-01-02T00:00:00Z' }

  it('holds when the synced row has every field of the answer', () => {
    expect(isReflected(answer, { ...answer, version: 7 })).toBe(true)
    expect(isReflected(answer, { ...answer, subject: 'Old', version: 7 })).toBe(false)
    expect(isReflected(answer, { ...answer, mentor: { id: 'm', extra: 1 } })).toBe(false)
  })

  it('holds when the synced row was updated after the answer', () => {
    expect(
      isReflected(answer, { ...answer, subject: 'Newer', updatedAt: '2025-01-03T00:00:00Z' }),
    ).toBe(true)
  })

  it('fails while the row has not arrived, and holds for an answer that is not a row', () => {
    expect(isReflected(answer, undefined)).toBe(false)
    expect(isReflected(null, undefined)).toBe(true)
  })
})

describe('dropCaughtUp', () => {
  const contexts: ReturnType<typeof localContext>[] = []
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.db.delete()
  })

  async function applied(answer: unknown) {
    const ctx = localContext(mentor)
    contexts.push(ctx)
    const row: OutboxRow = {
      id: 'm1',
      kind: 'edit-topic',
      method: 'PATCH',
      path: '/api/topics/x',
      label: 'Edit',
      targets: [],
      confirmIn: 'topics',
      awaitingConfirmation: false,
      createdAt: 0,
      status: 'applied',
      attempts: 1,
      answer,
      appliedAt: 1_000,
      pullsSinceApplied: 0,
    }
    const seq = await ctx.db.outbox.add(row)
    await ctx.db.overlay.add({
      mutationId: 'm1',
      seq,
      table: 'topics',
      rowId: 'x',
      op: {},
      awaitingConfirmation: false,
    })
    return { db: ctx.db, seq }
  }

  it('drops a mutation and its overlay once the synced row shows its answer', async () => {
    const topic = topicRow(mentor, { subject: 'Edited' })
    const { version: _, ...answer } = topic
    const { db, seq } = await applied(answer)
    expect(await dropCaughtUp(db, [seq], 2_000)).toBe(1)
    expect(await db.outbox.get(seq)).toMatchObject({ pullsSinceApplied: 1 })
    await db.topics.put(topic)
    expect(await dropCaughtUp(db, [seq], 3_000)).toBe(0)
    expect(await db.outbox.count()).toBe(0)
    expect(await db.overlay.count()).toBe(0)
  })

  it('drops a mutation whose answer a pull from nothing stored in a pack', async () => {
    const topic = topicRow(mentor, { subject: 'Edited' })
    const { version: _, ...answer } = topic
    const { db, seq } = await applied(answer)
    // The pull started again (packs.ts): the topic is in the first page's pack.
    await db.packs.add({ table: 'topics', rows: [topic], removed: [] })
    expect(await dropCaughtUp(db, [seq], 2_000)).toBe(0)
    expect(await db.outbox.count()).toBe(0)
    expect(await db.overlay.count()).toBe(0)
  })

  it('drops a create whose row shows a later edit of the same push (one transaction, one updatedAt)', async () => {
    const edited = topicRow(mentor, { subject: 'Created, then edited' })
    const { version: _, ...editAnswer } = edited
    const createAnswer = { ...editAnswer, subject: 'Created' }
    const { db, seq: createSeq } = await applied(createAnswer)
    const editSeq = await db.outbox.add({
      ...((await db.outbox.get(createSeq)) as OutboxRow),
      seq: undefined,
      id: 'm2',
      answer: editAnswer,
    })
    await db.topics.put(edited)
    // The create's own answer is not what the row shows, and the times are equal.
    expect(isReflected(createAnswer, edited)).toBe(false)
    expect(await dropCaughtUp(db, [createSeq, editSeq], 2_000)).toBe(0)
    expect(await db.outbox.count()).toBe(0)
  })

  it(`gives up waiting after ${CATCH_UP_PULLS} pulls and ${CATCH_UP_MS} ms, not before`, async () => {
    const { db, seq } = await applied({ id: 'gone', subject: 'x' })
    // Many quick pulls are not enough: a transaction held open elsewhere may outlast them.
    for (let i = 0; i < CATCH_UP_PULLS + 2; i++)
      expect(await dropCaughtUp(db, [seq], 2_000)).toBe(1)
    expect(await dropCaughtUp(db, [seq], 1_000 + CATCH_UP_MS)).toBe(0)
    expect(await db.outbox.count()).toBe(0)
  })
})
