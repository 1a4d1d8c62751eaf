import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { monthEnd, monthsOf, presetPeriod } from '../../shared/insights-period.ts'
import type { Insights } from '../../shared/insights-report.ts'
import { seedScale } from '../demo/seed-scale.ts'
import { startTestServer, type TestServer } from '../test/server.ts'

// An attacker with every answer of GET /api/admin/insights over every period of
// the last year (each run of whole months) tries to recover a hidden cell by
// adding and subtracting the figures shown. Each figure shown is a sum of
// unknowns (the month-by-key counts); a hidden cell is recovered exactly when
// its own sum is a linear combination of the shown ones. None may be.

let server: TestServer
let answers: Insights[]
const year = presetPeriod('last-12-months')
const months = monthsOf(year.from, year.to)

beforeAll(async () => {
  server = await startTestServer()
  // A small programme over one year: many groups of fewer than 5 in a month.
  await seedScale(server.sql, { users: 90, years: 1, seed: 3 })
  const admin = await server.signIn('admin')
  answers = []
  for (let i = 0; i < months.length; i++) {
    for (let j = i; j < months.length; j++) {
      const from = `${months[i]}-01`
      const to = monthEnd(new Date(`${months[j]}-01T00:00:00Z`))
      const res = await admin.get(`/api/admin/insights?from=${from}&to=${to}`)
      expect(res.status, res.text).toBe(200)
      answers.push(res.body)
    }
  }
}, 240_000)
afterAll(async () => {
  await server?.stop()
})

type Figure = {
  name: string
  keys: string[]
  read: (a: Insights) => { key: string; count: number | null }[]
}

/** Additive figures over months: each cell shown is the sum of its months. The total is key '*'. */
const FIGURES: Figure[] = [
  {
    name: 'topics',
    keys: ['proposed', 'rejected', 'approved', 'started', 'concluded'],
    read: (a) => withTotal(a.funnel.topics),
  },
  {
    name: 'applications',
    keys: ['pending', 'accepted', 'rejected'],
    read: (a) => withTotal(a.funnel.applications),
  },
  {
    name: 'mentorRatings',
    keys: ['1', '2', '3', '4', '5'],
    read: (a) => withTotal(a.outcomes.mentorRatings),
  },
  {
    name: 'menteeRatings',
    keys: ['1', '2', '3', '4', '5'],
    read: (a) => withTotal(a.outcomes.menteeRatings),
  },
  {
    name: 'feedback',
    // Concluded topics with and without feedback: the total is concluded.
    keys: ['with feedback', 'without feedback'],
    read: (a) => [
      { key: 'with feedback', count: a.outcomes.concludedWithFeedback },
      { key: '*', count: a.outcomes.concluded },
    ],
  },
  {
    name: 'stages',
    keys: ['approved', 'started', 'concluded'],
    read: (a) =>
      ['approved', 'started', 'concluded'].map((k) => ({
        key: k,
        count: a.funnel.stages[k as 'approved'],
      })),
  },
]

function withTotal(b: Insights['funnel']['topics']) {
  return [...b.cells, { key: '*', count: b.total }]
}

describe('differencing over every period of the last year', () => {
  it('answers a year of periods with both shown and hidden cells', () => {
    const cells = answers.flatMap((a) => FIGURES.flatMap((f) => f.read(a)))
    expect(cells.filter((c) => c.count === null).length).toBeGreaterThan(20)
    expect(cells.filter((c) => c.count !== null && c.count > 0).length).toBeGreaterThan(20)
  })

  for (const figure of FIGURES) {
    it(`recovers no hidden cell of ${figure.name}`, () => {
      const unknowns = months.flatMap((m) => figure.keys.map((k) => `${m}|${k}`))
      const vector = (from: string, to: string, key: string) =>
        unknowns.map((u) => {
          const [m, k] = u.split('|') as [string, string]
          return m >= from.slice(0, 7) && m <= to.slice(0, 7) && (key === '*' || key === k) ? 1 : 0
        })
      const known: number[][] = []
      const hidden: { vector: number[]; label: string }[] = []
      for (const a of answers) {
        for (const cell of figure.read(a)) {
          const v = vector(a.period.from, a.period.to, cell.key)
          if (cell.count === null)
            hidden.push({ vector: v, label: `${cell.key} ${a.period.from}…${a.period.to}` })
          else known.push(v)
        }
      }
      const basis = rowEchelon(known)
      const recovered = hidden.filter((h) => inSpan(basis, h.vector)).map((h) => h.label)
      expect(recovered).toEqual([])
    })
  }

  it('never leaves exactly one hidden cell in a snapshot breakdown with a total', () => {
    const last = answers[answers.length - 1] as Insights
    const hiddenOpen = last.capacity.openTopics.cells.filter((c) => c.count === null).length
    expect(hiddenOpen).not.toBe(1)
    const hiddenLevels = last.demand.bySeniority.filter((r) => r.people === null).length
    expect(hiddenLevels).not.toBe(1)
  })
})

/** Gaussian elimination: the independent rows, each with a leading 1 in its own column. */
function rowEchelon(rows: number[][]): { row: number[]; pivot: number }[] {
  const basis: { row: number[]; pivot: number }[] = []
  for (const original of rows) {
    const r = reduce(basis, [...original])
    const pivot = r.findIndex((x) => Math.abs(x) > 1e-9)
    if (pivot === -1) continue
    const lead = r[pivot] as number
    const row = r.map((x) => x / lead)
    for (const b of basis) {
      const f = b.row[pivot] as number
      if (Math.abs(f) > 1e-9) b.row = b.row.map((x, i) => x - f * (row[i] as number))
    }
    basis.push({ row, pivot })
  }
  return basis
}

function reduce(basis: { row: number[]; pivot: number }[], v: number[]): number[] {
  let r = v
  for (const b of basis) {
    const f = r[b.pivot] as number
    if (Math.abs(f) > 1e-9) r = r.map((x, i) => x - f * (b.row[i] as number))
  }
  return r
}

function inSpan(basis: { row: number[]; pivot: number }[], v: number[]): boolean {
  return reduce(basis, v).every((x) => Math.abs(x) < 1e-6)
}
