import type { Db } from '../db/connect.ts'

/**
 * A count of one figure in one calendar month (UTC), for one key of its
 * breakdown. The figures (docs/insights.md):
 * - `topics`: topics first proposed in the month, by their status now;
 * - `approved`, `started`: topics approved (reviewed and not rejected), and started, in the month;
 * - `applications`: applications made in the month, by their status now;
 * - `mentorRatings` / `menteeRatings`: star ratings on topics concluded in the month;
 * - `concluded`, `concludedWithFeedback`: topics concluded in the month, and those with any feedback;
 * - `menteesApplied`, `menteesMatched`: people who applied in the month, and those of them
 *   with an application of the month accepted.
 */
export type MonthlyCount = { figure: string; month: string; key: string; n: number }

/** The UTC instant a YYYY-MM-DD day starts, and the instant after a day ends. */
export function bounds(db: Db, from: string, to: string) {
  return {
    start: db`(${from}::date::timestamp AT TIME ZONE 'UTC')`,
    end: db`((${to}::date + 1)::timestamp AT TIME ZONE 'UTC')`,
  }
}

/** YYYY-MM of a timestamptz column, in UTC. */
export function monthOf(db: Db, column: string) {
  return db`to_char(${db(column)} AT TIME ZONE 'UTC', 'YYYY-MM')`
}

/** Every monthly count from `from` to `to` (whole months), in one round trip. */
export async function monthlyCounts(db: Db, from: string, to: string): Promise<MonthlyCount[]> {
  const { start, end } = bounds(db, from, to)
  return db<MonthlyCount[]>`
    SELECT 'topics' AS figure, ${monthOf(db, 't.created_at')} AS month, t.status::text AS key, count(*)::int AS n
    FROM topics t WHERE t.created_at >= ${start} AND t.created_at < ${end} GROUP BY 2, 3
    UNION ALL
    SELECT 'applications', ${monthOf(db, 'a.created_at')}, a.status::text, count(*)::int
    FROM applications a WHERE a.created_at >= ${start} AND a.created_at < ${end} GROUP BY 2, 3
    UNION ALL
    SELECT CASE WHEN f.is_mentor THEN 'mentorRatings' ELSE 'menteeRatings' END,
           ${monthOf(db, 't.concluded_at')}, f.rating::text, count(*)::int
    FROM feedback f JOIN topics t ON t.id = f.topic_id
    WHERE t.status = 'concluded' AND t.concluded_at >= ${start} AND t.concluded_at < ${end}
    GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'concluded', ${monthOf(db, 't.concluded_at')}, 'all', count(*)::int
    FROM topics t WHERE t.status = 'concluded' AND t.concluded_at >= ${start} AND t.concluded_at < ${end}
    GROUP BY 2
    UNION ALL
    SELECT 'concludedWithFeedback', ${monthOf(db, 't.concluded_at')}, 'all', count(*)::int
    FROM topics t WHERE t.status = 'concluded' AND t.concluded_at >= ${start} AND t.concluded_at < ${end}
      AND EXISTS (SELECT 1 FROM feedback f WHERE f.topic_id = t.id)
    GROUP BY 2
    UNION ALL
    SELECT 'approved', ${monthOf(db, 't.reviewed_at')}, 'all', count(*)::int
    FROM topics t WHERE t.status IN ('approved', 'started', 'concluded')
      AND t.reviewed_at >= ${start} AND t.reviewed_at < ${end}
    GROUP BY 2
    UNION ALL
    SELECT 'started', ${monthOf(db, 't.started_at')}, 'all', count(*)::int
    FROM topics t WHERE t.status IN ('started', 'concluded') AND t.started_at >= ${start} AND t.started_at < ${end}
    GROUP BY 2
    UNION ALL
    SELECT 'menteesApplied', ${monthOf(db, 'a.created_at')}, 'all', count(DISTINCT a.mentee_id)::int
    FROM applications a WHERE a.created_at >= ${start} AND a.created_at < ${end} GROUP BY 2
    UNION ALL
    SELECT 'menteesMatched', ${monthOf(db, 'a.created_at')}, 'all', count(DISTINCT a.mentee_id)::int
    FROM applications a WHERE a.created_at >= ${start} AND a.created_at < ${end} AND a.status = 'accepted'
    GROUP BY 2`
}

/** People who applied in the period, and those of them with an application of the period accepted. */
export async function periodMentees(
  db: Db,
  from: string,
  to: string,
): Promise<{ applied: number; matched: number }> {
  const { start, end } = bounds(db, from, to)
  const [row] = await db<{ applied: number; matched: number }[]>`
    SELECT count(DISTINCT a.mentee_id)::int AS applied,
           count(DISTINCT a.mentee_id) FILTER (WHERE a.status = 'accepted')::int AS matched
    FROM applications a WHERE a.created_at >= ${start} AND a.created_at < ${end}`
  return row ?? { applied: 0, matched: 0 }
}
