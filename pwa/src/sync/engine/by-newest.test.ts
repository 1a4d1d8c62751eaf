import { expect, it } from 'vitest'
import { byNewest } from './packs.ts'

it('orders ISO times newest first, as localeCompare did, ties in their order', () => {
  const times = [
    '2024-02-29T23:59:59.999Z',
    '2026-11-29T09:00:00.000Z',
    '2019-01-01T00:00:00.000Z',
    '2026-11-29T09:00:00.001Z',
    '2026-01-09T10:00:00.000Z',
    '2026-11-29T09:00:00.000Z',
  ]
  const rows = times.map((createdAt, i) => ({ createdAt, i }))
  const ours = [...rows].sort(byNewest)
  const before = [...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  expect(ours).toEqual(before)
  expect(ours.map((r) => r.i)).toEqual([3, 1, 5, 4, 0, 2])
})
