import { digestDue, localTime } from '../../shared/delivery-time.ts'
import type { Sql } from '../db/connect.ts'
import {
  type PreferenceRow,
  preferenceColumns,
  preferencesFromRow,
} from '../notifications/queries.ts'
import { DELIVERY_CHANNEL } from './queue.ts'
import { DAILY_EMAIL_BUDGET, lockBudget } from './send-job.ts'

type Candidate = { userId: string } & PreferenceRow

/**
 * Queues the daily digests that are due at `now` (issue 18, decision 0038):
 * for each person with unread notifications waiting for their digest, once
 * their digest hour has come in their time zone and they are not in quiet
 * hours, one `digest` job listing them, unless a digest (or another e-mail
 * outside decisions) already went to them that local day. Waiting
 * notifications read in the app meanwhile are dropped from the wait: nothing
 * read is e-mailed, and nothing is sent when nothing is left. At most one a
 * person and local day across instances: the digest takes that day's e-mail
 * budget row in the job's transaction, under the budget's per-person lock.
 * Answers how many digests it queued.
 */
export async function runDigests(sql: Sql, { now }: { now: Date }): Promise<number> {
  await sql`
    UPDATE notifications SET digest_state = NULL WHERE digest_state = 'waiting' AND read`
  const candidates = await sql<Candidate[]>`
    SELECT w.user_id AS "userId", ${preferenceColumns(sql)}
    FROM (SELECT DISTINCT user_id FROM notifications WHERE digest_state = 'waiting') w
    LEFT JOIN notification_preferences p ON p.user_id = w.user_id`
  let queued = 0
  for (const candidate of candidates) {
    const preferences = preferencesFromRow(candidate)
    if (!digestDue(preferences, now)) continue
    const day = localTime(now, preferences.timeZone).date
    const done = await sql.begin(async (tx) => {
      await lockBudget(tx, candidate.userId)
      const [sent] = await tx<{ n: number }[]>`
        SELECT count(*)::int AS n FROM delivery_budget
        WHERE user_id = ${candidate.userId} AND local_date = ${day} AND channel = 'email'`
      if ((sent?.n ?? 0) >= DAILY_EMAIL_BUDGET) return false
      const items = await tx<{ id: string; title: string; message: string; link: string | null }[]>`
        UPDATE notifications SET digest_state = 'sent'
        WHERE user_id = ${candidate.userId} AND digest_state = 'waiting' AND NOT read
        RETURNING id, title, message, link`
      if (items.length === 0) return false
      const ids = items.map((i) => i.id)
      await tx`
        INSERT INTO delivery_jobs (kind, user_id, payload)
        VALUES ('digest', ${candidate.userId}, ${tx.json({ notificationIds: ids })})`
      await tx`
        INSERT INTO delivery_budget (user_id, local_date, channel, notification_id)
        VALUES (${candidate.userId}, ${day}, 'email', gen_random_uuid())`
      await tx`SELECT pg_notify(${DELIVERY_CHANNEL}, '')`
      return true
    })
    if (done) queued++
  }
  return queued
}
