import { once } from 'node:events'
import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import type postgres from 'postgres'
import { CSV_MEDIA_TYPE, CSV_OPTIONS } from '../../shared/csv.ts'
import type { ExportFile } from '../../shared/insights-report.ts'
import type { Sql } from '../db/connect.ts'

/** Rows fetched from Postgres per round trip while streaming. */
const CURSOR_ROWS = 2_000

const iso = (sql: Sql, column: string) =>
  sql`to_char(${sql(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`

/** The query of each export, in a stable order (oldest first, then id). Columns: docs/insights.md. */
const QUERIES: Record<ExportFile, (sql: Sql) => postgres.PendingQuery<postgres.Row[]>> = {
  topics: (sql) => sql`
    SELECT t.id, t.subject, t.status, m.username AS mentor_username, t.max_mentees, t.current_mentees,
           array_to_string(t.seniority_required, ';') AS seniority_required, t.location,
           array_to_string(t.interests, ';') AS interests, ${iso(sql, 't.created_at')} AS created_at,
           ${iso(sql, 't.submitted_at')} AS submitted_at, ${iso(sql, 't.reviewed_at')} AS reviewed_at,
           ${iso(sql, 't.started_at')} AS started_at, ${iso(sql, 't.concluded_at')} AS concluded_at,
           t.rejection_reason, t.mentor_feedback
    FROM topics t JOIN users m ON m.id = t.mentor_id ORDER BY t.created_at, t.id`,
  applications: (sql) => sql`
    SELECT a.id, a.topic_id, t.subject AS topic_subject, u.username AS mentee_username,
           u.seniority AS mentee_seniority, a.status, a.rejection_reason,
           ${iso(sql, 'a.created_at')} AS created_at, ${iso(sql, 'a.decided_at')} AS decided_at
    FROM applications a JOIN topics t ON t.id = a.topic_id JOIN users u ON u.id = a.mentee_id
    ORDER BY a.created_at, a.id`,
  users: (sql) => sql`
    SELECT u.id, u.username, u.full_name, u.email, u.seniority, array_to_string(u.interests, ';') AS interests,
           u.is_admin, ${iso(sql, 'u.created_at')} AS created_at
    FROM users u ORDER BY u.created_at, u.id`,
  feedback: (sql) => sql`
    SELECT f.id, f.topic_id, t.subject AS topic_subject, u.username,
           CASE WHEN f.is_mentor THEN 'mentor' ELSE 'mentee' END AS side, f.rating, f.feedback,
           ${iso(sql, 'f.created_at')} AS created_at, ${iso(sql, 'f.updated_at')} AS updated_at
    FROM feedback f JOIN topics t ON t.id = f.topic_id JOIN users u ON u.id = f.user_id
    ORDER BY f.created_at, f.id`,
}

/** Waits until the client took what was written, or went away; leaves no listener behind. */
async function drained(csv: ReturnType<typeof stringify>): Promise<void> {
  const done = new AbortController()
  try {
    await Promise.race([
      once(csv, 'drain', { signal: done.signal }),
      once(csv, 'close', { signal: done.signal }),
    ])
  } finally {
    done.abort()
  }
}

/** The header row of each export: the columns of its query. */
const EXPORT_COLUMNS: Record<ExportFile, string[]> = {
  topics: [
    'id',
    'subject',
    'status',
    'mentor_username',
    'max_mentees',
    'current_mentees',
    'seniority_required',
    'location',
    'interests',
    'created_at',
    'submitted_at',
    'reviewed_at',
    'started_at',
    'concluded_at',
    'rejection_reason',
    'mentor_feedback',
  ],
  applications: [
    'id',
    'topic_id',
    'topic_subject',
    'mentee_username',
    'mentee_seniority',
    'status',
    'rejection_reason',
    'created_at',
    'decided_at',
  ],
  users: [
    'id',
    'username',
    'full_name',
    'email',
    'seniority',
    'interests',
    'is_admin',
    'created_at',
  ],
  feedback: [
    'id',
    'topic_id',
    'topic_subject',
    'username',
    'side',
    'rating',
    'feedback',
    'created_at',
    'updated_at',
  ],
}

/**
 * A CSV export as a streamed answer: rows come from a Postgres cursor two
 * thousand at a time and go through csv-stringify, which waits for the
 * client (backpressure), so memory stays flat whatever the table's size. An
 * error part-way ends the stream early: the client sees a cut file, never a
 * wrong one.
 */
export function exportResponse(sql: Sql, file: ExportFile): Response {
  const csv = stringify({ ...CSV_OPTIONS, columns: EXPORT_COLUMNS[file] })
  void (async () => {
    try {
      for await (const rows of QUERIES[file](sql).cursor(CURSOR_ROWS)) {
        for (const row of rows) {
          if (!csv.write(row)) await drained(csv)
        }
        // The client went away: leaving the loop closes the cursor and frees the connection.
        if (csv.destroyed) return
      }
      csv.end()
    } catch (error) {
      csv.destroy(error instanceof Error ? error : new Error(String(error)))
    }
  })()
  const date = new Date().toISOString().slice(0, 10)
  return new Response(Readable.toWeb(csv) as ReadableStream, {
    headers: {
      'content-type': CSV_MEDIA_TYPE,
      'content-disposition': `attachment; filename="pairwise-${file}-${date}.csv"`,
      'cache-control': 'no-store',
    },
  })
}
