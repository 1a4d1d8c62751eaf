import { randomUUID } from 'node:crypto'
import Dexie from 'dexie'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { dismissToast, getToasts } from '../components/toast/store.ts'
import { createSyncDb, type RejectedRow, type SyncDb } from '../sync/engine/db.ts'
import type { SyncEngine } from '../sync/engine/engine.ts'
import { runChange } from './use-change.ts'

// A change made offline waits 400 ms for its answer, and meanwhile the app's own refusal
// toast skips it (isAwaited). A refusal reported in that window must still be told, even
// when the wait ends before it reads the refusal back from IndexedDB.

let db: SyncDb

beforeEach(async () => {
  db = createSyncDb(`use-change-${randomUUID()}`)
  await db.open()
  for (const t of getToasts()) dismissToast(t.id)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(db.name)
})

it('tells a refusal that comes while it waits, though the wait ends first', async () => {
  const mutationId = randomUUID()
  // Still in the outbox, as the engine leaves it until the refused list has it.
  await db.outbox.add({
    id: mutationId,
    kind: 'apply',
    method: 'POST',
    path: '/api/topics/x/apply',
    label: 'Apply',
    targets: [],
    confirmIn: null,
    awaitingConfirmation: true,
    createdAt: Date.now(),
    status: 'queued',
    attempts: 0,
  })
  const listeners = new Set<(row: RejectedRow) => void>()
  const engine = {
    db,
    status: { get: () => ({ online: false }) },
    onRejected: (listener: (row: RejectedRow) => void) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  } as unknown as Pick<SyncEngine, 'db' | 'status' | 'onRejected'>
  const detail = 'This topic is full: it already has the maximum number of mentees.'
  const result = await runChange(
    engine,
    async () => {
      // The engine reports the refusal at once; its row is never read back here.
      setTimeout(() => {
        for (const l of listeners) l({ id: mutationId, status: 409, detail } as RejectedRow)
      }, 50)
      return { mutationId }
    },
    { success: 'Application submitted successfully' },
  )
  expect(result).toEqual({ kind: 'refused', detail, status: 409 })
  expect(getToasts().map((t) => [t.title, t.description])).toEqual([['Error', detail]])
  expect(listeners.size).toBe(0)
})
