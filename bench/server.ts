import { performance } from 'node:perf_hooks'
import { presetPeriod } from '../shared/insights-period.ts'
import { COMPANY_USERS, seedScale } from '../sync-server/demo/seed-scale.ts'
import { startTestServer } from '../sync-server/test/server.ts'
import { benchTopicReads } from './topic-reads.ts'

// `npm run bench:server`: the figures of the insights issue at company scale
// (5,000 users, 10,000 topics, 20,000 applications from `seedScale`), on a
// fresh database (embedded PGlite, or a new database on DATABASE_URL's
// server), through HTTP, each beside the plain SQL that reads the same rows.
// Then GET /api/topics at 1,000 visible topics on a database of its own
// (bench/topic-reads.ts). BENCH_ONLY=topics runs only that part.

const RUNS = 15
const INSIGHTS_TARGET_MS = 300
const EXPORT_TARGET_MS = 1_000

async function main(): Promise<void> {
  const server = await startTestServer()
  try {
    const where = server.databaseUrl
      ? `PostgreSQL (${new URL(server.databaseUrl).host})`
      : 'embedded PGlite'
    console.log(`Server benchmark on ${where}, through HTTP on ${server.url}`)
    const seeded = performance.now()
    const counts = await seedScale(server.sql, { users: COMPANY_USERS })
    await server.sql`ANALYZE`
    console.log(
      `Seeded ${counts.users} users, ${counts.topics} topics, ${counts.applications} applications, ` +
        `${counts.feedback} feedback in ${((performance.now() - seeded) / 1000).toFixed(1)} s\n`,
    )
    const admin = await server.signIn('admin')
    const headers = { cookie: admin.cookie ?? '' }

    for (const preset of ['this-quarter', 'last-12-months'] as const) {
      const { from, to } = presetPeriod(preset)
      const insights = await timed(async () => {
        const res = await fetch(`${server.url}/api/admin/insights?from=${from}&to=${to}`, {
          headers,
        })
        if (res.status !== 200) throw new Error(`insights answered ${res.status}`)
        await res.json()
      })
      // The plain SQL under the biggest part of the answer: counts by month and status.
      const raw = await timed(async () => {
        await server.sql`
          SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), status, count(*) FROM applications
          WHERE created_at >= ${from}::date AND created_at < ${to}::date + 1 GROUP BY 1, 2`
      })
      console.log(
        `GET /api/admin/insights (${preset}): median ${insights.median.toFixed(0)} ms, ` +
          `p95 ${insights.p95.toFixed(0)} ms (target ≤ ${INSIGHTS_TARGET_MS} ms) ` +
          `| one raw SQL breakdown: median ${raw.median.toFixed(0)} ms`,
      )
    }

    let bytes = 0
    const exported = await timed(async () => {
      const res = await fetch(`${server.url}/api/admin/export/applications.csv`, { headers })
      if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`)
      bytes = 0
      for await (const chunk of res.body) bytes += chunk.length
    }, 5)
    const rawRows = await timed(async () => {
      await server.sql`
        SELECT a.*, t.subject, u.username, u.seniority FROM applications a
        JOIN topics t ON t.id = a.topic_id JOIN users u ON u.id = a.mentee_id ORDER BY a.created_at, a.id`
    }, 5)
    console.log(
      `GET /api/admin/export/applications.csv (${counts.applications} rows, ${(bytes / 1e6).toFixed(1)} MB): ` +
        `median ${exported.median.toFixed(0)} ms, p95 ${exported.p95.toFixed(0)} ms (target ≤ ${EXPORT_TARGET_MS} ms) ` +
        `| raw SQL reading the same rows at once: median ${rawRows.median.toFixed(0)} ms`,
    )
  } finally {
    await server.stop()
  }
}

/** Runs `run` once to warm up, then `runs` times: median and 95th percentile in ms. */
async function timed(
  run: () => Promise<void>,
  runs = RUNS,
): Promise<{ median: number; p95: number }> {
  await run()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await run()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0
  return { median: at(0.5), p95: at(0.95) }
}

if (process.env.BENCH_ONLY !== 'topics') await main()
await benchTopicReads()
