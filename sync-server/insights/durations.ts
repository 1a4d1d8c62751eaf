import { TOPIC_STARTED_REJECTION_REASON } from '../../shared/constants.ts'
import type { Db } from '../db/connect.ts'
import { bounds, monthOf } from './monthly-counts.ts'

/** How long things took, in days: `month` null for the whole period. */
export type DurationRow = {
  figure: 'review' | 'answer' | 'timeToMatch'
  month: string | null
  n: number
  median: number | null
  p90: number | null
}

const days = (db: Db, later: string, earlier: string) =>
  db`extract(epoch FROM (${db(later)} - ${db(earlier)})) / 86400.0`

/**
 * Median and 90th percentile (continuous, as Postgres' percentile_cont) of:
 * - `review`: submitted → reviewed, topics submitted in the period and reviewed since;
 * - `answer`: made → accepted or rejected by the mentor, applications made in the period
 *   (closures when a topic started are not answers);
 * - `timeToMatch`: a person's first application of the period → the first acceptance of one of
 *   them, for people matched.
 * Per month of the submission or application, and over the whole period (GROUPING SETS).
 */
export async function durations(db: Db, from: string, to: string): Promise<DurationRow[]> {
  const { start, end } = bounds(db, from, to)
  const rows = await db<
    { figure: DurationRow['figure']; month: string | null; n: number; q: (number | null)[] }[]
  >`
    WITH items AS (
      SELECT 'review' AS figure, ${monthOf(db, 't.submitted_at')} AS month,
             ${days(db, 't.reviewed_at', 't.submitted_at')} AS d
      FROM topics t
      WHERE t.submitted_at >= ${start} AND t.submitted_at < ${end} AND t.reviewed_at IS NOT NULL
      UNION ALL
      SELECT 'answer', ${monthOf(db, 'a.created_at')}, ${days(db, 'a.decided_at', 'a.created_at')}
      FROM applications a
      WHERE a.created_at >= ${start} AND a.created_at < ${end} AND a.decided_at IS NOT NULL
        AND a.rejection_reason IS DISTINCT FROM ${TOPIC_STARTED_REJECTION_REASON}
      UNION ALL
      SELECT 'timeToMatch', ${monthOf(db, 'm.first_applied')},
             greatest(0, extract(epoch FROM (m.first_accepted - m.first_applied)) / 86400.0)
      FROM (
        SELECT a.mentee_id, min(a.created_at) AS first_applied,
               min(a.decided_at) FILTER (WHERE a.status = 'accepted') AS first_accepted
        FROM applications a WHERE a.created_at >= ${start} AND a.created_at < ${end}
        GROUP BY a.mentee_id
      ) m
      WHERE m.first_accepted IS NOT NULL
    )
    SELECT figure, month, count(*)::int AS n,
           percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY d) AS q
    FROM items GROUP BY GROUPING SETS ((figure, month), (figure))`
  return rows.map((r) => ({
    figure: r.figure,
    month: r.month,
    n: r.n,
    median: round(r.q[0]),
    p90: round(r.q[1]),
  }))
}

function round(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : Math.round(Number(value) * 100) / 100
}
