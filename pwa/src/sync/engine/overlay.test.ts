import { describe, expect, it } from 'vitest'
import type { OverlayRow, RejectedRow } from './db.ts'
import { applyOp, mergeRow, mergeRows } from './overlay.ts'

type Row = { id: string; n: number; flag: boolean; nested: { status: string }; name?: string }

const row = (id: string, n = 0): Row => ({ id, n, flag: false, nested: { status: 'a' } })

function overlay(mutationId: string, seq: number, rowId: string, op: OverlayRow['op']): OverlayRow {
  return { mutationId, seq, table: 'topics', rowId, op, awaitingConfirmation: false }
}

describe('applyOp', () => {
  it('sets fields and dotted paths without changing the row it was given', () => {
    const base = row('a')
    const next = applyOp(base, { set: { n: 5, 'nested.status': 'b' } })
    expect(next).toEqual({ id: 'a', n: 5, flag: false, nested: { status: 'b' } })
    expect(base).toEqual(row('a'))
  })

  it('adds to numbers and flips booleans', () => {
    expect(applyOp(row('a', 1), { inc: { n: 2 }, flip: ['flag'] })).toMatchObject({
      n: 3,
      flag: true,
    })
  })

  it('creates a missing row, and leaves an existing row to the server', () => {
    expect(applyOp(undefined, { create: { id: 'x', n: 1 } })).toEqual({ id: 'x', n: 1 })
    expect(applyOp(row('a', 7), { create: { id: 'a', n: 1 } })).toEqual(row('a', 7))
  })

  it('changes nothing on a row that is not there', () => {
    expect(applyOp(undefined, { set: { n: 1 } })).toBeUndefined()
  })
})

describe('mergeRow', () => {
  it('applies changes in outbox order whatever order they come in', () => {
    const merged = mergeRow(row('a'), [
      overlay('m2', 2, 'a', { set: { n: 2 } }),
      overlay('m1', 1, 'a', { set: { n: 1 }, inc: { n: 0 } }),
      overlay('m3', 3, 'a', { inc: { n: 10 } }),
    ])
    expect(merged?.n).toBe(12)
    expect(merged?.sync).toMatchObject({
      pending: true,
      created: false,
      mutations: ['m1', 'm2', 'm3'],
    })
  })

  it('marks a clean row as not pending', () => {
    expect(mergeRow(row('a'), [])?.sync).toMatchObject({ pending: false, mutations: [] })
  })

  it('marks a row created offline, awaiting confirmation when its write may be refused', () => {
    const o = { ...overlay('m1', 1, 'x', { create: row('x') }), awaitingConfirmation: true }
    expect(mergeRow<Row>(undefined, [o])?.sync).toMatchObject({
      pending: true,
      created: true,
      awaitingConfirmation: true,
    })
  })

  it('lists refusals on the row', () => {
    const refusal = { id: 'm9', label: 'Apply', status: 409, detail: 'Full.' } as RejectedRow
    expect(mergeRow(row('a'), [], [refusal])?.sync.rejected).toEqual([
      { mutationId: 'm9', label: 'Apply', status: 409, detail: 'Full.' },
    ])
  })
})

describe('mergeRows', () => {
  it('merges each row with its own changes and adds rows created offline', () => {
    const rows = [row('a'), row('b')]
    const merged = mergeRows('topics', rows, (r) => r.id, [
      overlay('m1', 1, 'b', { set: { n: 4 } }),
      overlay('m2', 2, 'c', { create: row('c', 9) }),
      { ...overlay('m3', 3, 'a', { set: { n: 99 } }), table: 'users' },
    ])
    expect(merged.map((r) => [r.id, r.n, r.sync.pending, r.sync.created])).toEqual([
      ['a', 0, false, false],
      ['b', 4, true, false],
      ['c', 9, true, true],
    ])
  })

  it('shows a refusal on the rows it targets only', () => {
    const refusal = {
      id: 'm1',
      label: 'Apply',
      status: 409,
      detail: 'Full.',
      targets: [{ table: 'topics', rowId: 'b' }],
    } as unknown as RejectedRow
    const merged = mergeRows('topics', [row('a'), row('b')], (r) => r.id, [], [refusal])
    expect(merged.map((r) => r.sync.rejected.length)).toEqual([0, 1])
  })
})
