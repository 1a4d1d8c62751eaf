import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { presetPeriod } from '../../shared/insights-period.ts'
import { insightsSchema } from '../../shared/insights-report.ts'
import { seedScale } from '../demo/seed-scale.ts'
import { expectProblem } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

// The figures against plain SQL over the same tables (docs/insights.md), on a
// generated programme large enough that the figures compared are shown.

let server: TestServer
let admin: Client
const year = presetPeriod('last-12-months')
const start = `${year.from}T00:00:00Z`
const end = new Date(new Date(`${year.to}T00:00:00Z`).getTime() + 86_400_000).toISOString()

beforeAll(async () => {
  server = await startTestServer()
  await seedScale(server.sql, { users: 600, seed: 11 })
  admin = await server.signIn('admin')
}, 120_000)
afterAll(async () => {
  await server?.stop()
})

async function insights() {
  const res = await admin.get(`/api/admin/insights?from=${year.from}&to=${year.to}`)
  expect(res.status, res.text).toBe(200)
  return insightsSchema.parse(res.body)
}

describe('GET /api/admin/insights', () => {
  it('is for administrators only', async () => {
    const query = `?from=${year.from}&to=${year.to}`
    expectProblem(await server.anonymous().get(`/api/admin/insights${query}`), 401)
    const member = await server.signIn('not-an-admin')
    const refused = await member.get(`/api/admin/insights${query}`)
    expectProblem(refused, 403)
    expect(refused.body.detail).toBe('Only administrators can see programme insights and exports.')
  })

  it.each([
    ['', 'from is required'],
    ['?from=2026-01-15&to=2026-03-31', 'first day of a month'],
    ['?from=2026-01-01&to=2026-03-15', 'last day of a month'],
    ['?from=2026-04-01&to=2026-03-31', 'must not be after'],
    ['?from=yesterday&to=2026-03-31', 'YYYY-MM-DD'],
  ])('refuses the period %s with a sentence', async (query, detail) => {
    const res = await admin.get(`/api/admin/insights${query}`)
    expectProblem(res, 400)
    expect(res.body.detail).toContain(detail)
  })

  it('counts topics and applications of the period as plain SQL does', async () => {
    const report = await insights()
    const topics = await server.sql<{ key: string; n: number }[]>`
      SELECT status::text AS key, count(*)::int AS n FROM topics
      WHERE created_at >= ${start} AND created_at < ${end} GROUP BY 1`
    const apps = await server.sql<{ key: string; n: number }[]>`
      SELECT status::text AS key, count(*)::int AS n FROM applications
      WHERE created_at >= ${start} AND created_at < ${end} GROUP BY 1`
    const sum = (rows: { n: number }[]) => rows.reduce((s, r) => s + r.n, 0)
    expect(report.funnel.topics.total).toBe(sum(topics))
    expect(report.funnel.applications.total).toBe(sum(apps))
    const shown = report.funnel.applications.cells.filter((c) => c.count !== null)
    expect(shown.length).toBeGreaterThan(1)
    for (const cell of shown) expect(cell.count).toBe(apps.find((r) => r.key === cell.key)?.n ?? 0)
    const accepted = apps.find((r) => r.key === 'accepted')?.n ?? 0
    expect(report.funnel.acceptanceRate).toBeCloseTo(accepted / sum(apps), 4)
  })

  it('gives the match rate and the review and answer times as plain SQL does', async () => {
    const report = await insights()
    const [match] = await server.sql<{ applied: number; matched: number }[]>`
      SELECT count(DISTINCT mentee_id)::int AS applied,
             count(DISTINCT mentee_id) FILTER (WHERE status = 'accepted')::int AS matched
      FROM applications WHERE created_at >= ${start} AND created_at < ${end}`
    expect(report.funnel.menteesApplied).toBe(match?.applied)
    expect(report.funnel.matchRate).toBeCloseTo((match?.matched ?? 0) / (match?.applied ?? 1), 4)
    const [review] = await server.sql<{ n: number; median: number; p90: number }[]>`
      SELECT count(*)::int AS n,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM reviewed_at - submitted_at) / 86400) AS median,
             percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM reviewed_at - submitted_at) / 86400) AS p90
      FROM topics WHERE submitted_at >= ${start} AND submitted_at < ${end} AND reviewed_at IS NOT NULL`
    expect(report.timing.review.count).toBe(review?.n)
    expect(report.timing.review.medianDays).toBeCloseTo(Number(review?.median), 1)
    expect(report.timing.review.p90Days).toBeCloseTo(Number(review?.p90), 1)
    const [answer] = await server.sql<{ n: number; median: number }[]>`
      SELECT count(*)::int AS n,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM decided_at - created_at) / 86400) AS median
      FROM applications WHERE created_at >= ${start} AND created_at < ${end} AND decided_at IS NOT NULL
        AND rejection_reason IS DISTINCT FROM 'The topic has started'`
    expect(report.timing.answer.count).toBe(answer?.n)
    expect(report.timing.answer.medianDays).toBeCloseTo(Number(answer?.median), 1)
  })

  it('gives capacity, demand and the oldest waiting items as plain SQL does', async () => {
    const report = await insights()
    const [cap] = await server.sql<{ open: number; filled: number; proposed: number }[]>`
      SELECT sum(max_mentees - current_mentees) FILTER (WHERE status = 'approved')::int AS open,
             sum(current_mentees) FILTER (WHERE status IN ('approved', 'started'))::int AS filled,
             count(*) FILTER (WHERE status = 'proposed')::int AS proposed
      FROM topics`
    expect(report.capacity.openPlaces).toBe(cap?.open)
    expect(report.capacity.filledPlaces).toBe(cap?.filled)
    expect(report.timing.proposedWaiting).toBe(cap?.proposed)
    const people = await server.sql<{ key: string; n: number }[]>`
      SELECT i AS key, count(*)::int AS n FROM users, unnest(interests) i GROUP BY i`
    const shownInterests = report.demand.byInterest.filter((r) => r.people !== null)
    expect(shownInterests.length).toBeGreaterThan(5)
    for (const r of shownInterests) expect(r.people).toBe(people.find((p) => p.key === r.key)?.n)
    const oldest = await server.sql<{ id: string }[]>`
      SELECT id FROM topics WHERE status = 'proposed' ORDER BY submitted_at, id LIMIT 5`
    expect(report.timing.oldestProposed.map((w) => w.id)).toEqual(oldest.map((o) => o.id))
  })

  it('gives the star ratings of topics concluded in the period as plain SQL does', async () => {
    const report = await insights()
    const ratings = await server.sql<{ key: string; n: number }[]>`
      SELECT f.rating::text AS key, count(*)::int AS n FROM feedback f JOIN topics t ON t.id = f.topic_id
      WHERE NOT f.is_mentor AND t.concluded_at >= ${start} AND t.concluded_at < ${end} GROUP BY 1`
    expect(report.outcomes.menteeRatings.total).toBe(ratings.reduce((s, r) => s + r.n, 0))
    for (const cell of report.outcomes.menteeRatings.cells.filter((c) => c.count !== null)) {
      expect(cell.count).toBe(ratings.find((r) => r.key === cell.key)?.n ?? 0)
    }
    // The last 12 months end with this one: twelve months, none still to come.
    expect(report.trends).toHaveLength(12)
  })
})
