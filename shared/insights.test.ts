import { describe, expect, it } from 'vitest'
import { countOverMonths, rateOf, showCount, suppress, suppressOverMonths } from './insights.ts'
import { monthsOf, periodQuerySchema, presetPeriod } from './insights-period.ts'

const cells = (...counts: number[]) => counts.map((count, i) => ({ key: `k${i}`, count }))

describe('suppress', () => {
  it('shows a breakdown where every group has 5 or more people', () => {
    expect(suppress(cells(5, 12, 0), 17)).toEqual({
      total: 17,
      cells: [
        { key: 'k0', count: 5 },
        { key: 'k1', count: 12 },
        { key: 'k2', count: 0 },
      ],
    })
  })

  it('hides a small cell and the next-smallest one beside it, so the total does not give it away', () => {
    const shown = suppress(cells(3, 40, 9, 0), 52)
    expect(shown.cells.map((c) => c.count)).toEqual([null, 40, null, 0])
    expect(shown.total).toBe(52)
  })

  it('adds no complement when two cells are already hidden', () => {
    expect(suppress(cells(1, 2, 30), 33).cells.map((c) => c.count)).toEqual([null, null, 30])
  })

  it('hides a small total (and, for a lone hidden cell, a complement even of no one)', () => {
    expect(suppress(cells(3, 0), 3)).toEqual({
      total: null,
      cells: [
        { key: 'k0', count: null },
        { key: 'k1', count: null },
      ],
    })
  })

  it('hides forced cells and complements a lone forced cell', () => {
    const shown = suppress(cells(50, 20, 10), 80, new Set(['k0']))
    expect(shown.cells.map((c) => c.count)).toEqual([null, 20, null])
  })
})

describe('suppressOverMonths', () => {
  const keys = ['k0', 'k1', 'k2']
  it('shows a period cell only when every month shows it', () => {
    const { period, months } = suppressOverMonths(
      [
        { cells: cells(10, 2, 30), total: 42 },
        { cells: cells(10, 20, 30), total: 60 },
      ],
      keys,
    )
    expect(months[0]?.cells.map((c) => c.count)).toEqual([null, null, 30])
    expect(period.cells.map((c) => c.count)).toEqual([null, null, 60])
    expect(period.total).toBe(102)
  })

  it('hides the period total when a month total is small', () => {
    const { period } = suppressOverMonths(
      [
        { cells: cells(3, 0, 0), total: 3 },
        { cells: cells(40, 9, 9), total: 58 },
      ],
      keys,
    )
    expect(period.total).toBeNull()
  })
})

describe('figures', () => {
  it('countOverMonths needs every month to show', () => {
    expect(countOverMonths([10, 3], 13)).toBeNull()
    expect(countOverMonths([10, 0, 7], 17)).toBe(17)
  })
  it('rateOf needs both parts', () => {
    expect(rateOf(7, 10)).toBe(0.7)
    expect(rateOf(null, 10)).toBeNull()
    expect(rateOf(0, 0)).toBeNull()
  })
  it('writes hidden figures as "fewer than 5"', () => {
    expect(showCount(null)).toBe('fewer than 5')
    expect(showCount(0)).toBe('0')
  })
})

describe('periods', () => {
  it('accepts whole months and lists them', () => {
    expect(periodQuerySchema.safeParse({ from: '2026-01-01', to: '2026-03-31' }).success).toBe(true)
    expect(monthsOf('2025-11-01', '2026-02-28')).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ])
  })
  it.each([
    [{ from: '2026-01-02', to: '2026-03-31' }, 'first day of a month'],
    [{ from: '2026-01-01', to: '2026-03-30' }, 'last day of a month'],
    [{ from: '2026-04-01', to: '2026-03-31' }, 'must not be after'],
    [{ from: '2020-01-01', to: '2026-03-31' }, 'at most 36 months'],
    [{ from: '2026-02-30', to: '2026-03-31' }, 'YYYY-MM-DD'],
  ])('refuses %o with a sentence', (query, message) => {
    const result = periodQuerySchema.safeParse(query)
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.message).join(' ')).toContain(message)
  })
  it('names this quarter, last quarter, this year and the last 12 months', () => {
    const today = new Date('2026-11-23T12:00:00Z')
    expect(presetPeriod('this-quarter', today)).toEqual({ from: '2026-10-01', to: '2026-12-31' })
    expect(presetPeriod('last-quarter', today)).toEqual({ from: '2026-07-01', to: '2026-09-30' })
    expect(presetPeriod('this-year', today)).toEqual({ from: '2026-01-01', to: '2026-12-31' })
    expect(presetPeriod('last-12-months', today)).toEqual({ from: '2025-12-01', to: '2026-11-30' })
  })
})
