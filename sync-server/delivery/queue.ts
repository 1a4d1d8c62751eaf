import type { NotificationKind } from '../../shared/notification.ts'
import type { Db, Sql } from '../db/connect.ts'

/** The channel a transaction that queued deliveries notifies on commit. */
export const DELIVERY_CHANNEL = 'pairwise_delivery'

/** What every delivery job carries: the notification as it was written. */
export type DeliveryPayload = {
  notificationId: string
  kind: NotificationKind
  title: string
  message: string
  link: string | null
  /** The topic it is about: pushes about one topic replace each other (tag). */
  topicId?: string | null
  /** A digest: the notifications it lists. */
  notificationIds?: string[]
}

export type DeliveryJob = {
  id: string
  kind: 'push' | 'email' | 'digest'
  userId: string
  subscriptionId: string | null
  payload: DeliveryPayload
  attempts: number
  createdAt: Date
  /** Until when quiet hours or the e-mail delay held it back, if they did. */
  heldUntil: Date | null
}

/** One recipient's share of a notification: which of its channels to queue. */
export type Delivery = {
  userId: string
  payload: DeliveryPayload
  /** The push subscriptions to send to, one job each. */
  subscriptionIds: string[]
  email: boolean
}

/**
 * Queues deliveries in the caller's transaction, so they exist exactly when
 * their notification does, and notifies DELIVERY_CHANNEL, which PostgreSQL
 * sends to the listening workers of every instance on commit. Answers how
 * many jobs it queued.
 */
export async function enqueueDeliveries(db: Db, deliveries: readonly Delivery[]): Promise<number> {
  const jobs = deliveries.flatMap((d) => [
    ...d.subscriptionIds.map((subscriptionId) => ({ kind: 'push', d, subscriptionId })),
    ...(d.email ? [{ kind: 'email', d, subscriptionId: '' }] : []),
  ])
  if (jobs.length === 0) return 0
  // One statement, one round trip: a data-modifying WITH runs whether or not the SELECT reads it.
  await db`
    WITH queued AS (
      INSERT INTO delivery_jobs (kind, user_id, subscription_id, payload)
      SELECT kind, user_id, NULLIF(subscription_id, '')::uuid, payload::jsonb
      FROM unnest(
        ${db.array(jobs.map((j) => j.kind))}::text[],
        ${db.array(jobs.map((j) => j.d.userId))}::uuid[],
        ${db.array(jobs.map((j) => j.subscriptionId))}::text[],
        ${db.array(jobs.map((j) => JSON.stringify(j.d.payload)))}::text[]
      ) AS j (kind, user_id, subscription_id, payload)
    )
    SELECT pg_notify(${DELIVERY_CHANNEL}, '')`
  return jobs.length
}

/**
 * Claims up to `limit` due jobs for `workerId`: pending, run_at passed, and
 * not leased by a live worker. SKIP LOCKED lets several workers claim side by
 * side without waiting for or taking each other's rows; the lease
 * (locked_until) hands the job of a worker that died to another once it ends.
 * Each claim counts as an attempt.
 */
export async function claimJobs(
  sql: Sql,
  workerId: string,
  limit: number,
  leaseMs: number,
): Promise<DeliveryJob[]> {
  return sql<DeliveryJob[]>`
    WITH picked AS (
      SELECT id FROM delivery_jobs
      WHERE state = 'pending' AND run_at <= now()
        AND (locked_until IS NULL OR locked_until <= now())
      ORDER BY run_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE delivery_jobs j
    SET attempts = j.attempts + 1, locked_by = ${workerId},
      locked_until = now() + make_interval(secs => ${leaseMs / 1000})
    FROM picked WHERE j.id = picked.id
    RETURNING j.id::text AS id, j.kind, j.user_id AS "userId", j.subscription_id AS "subscriptionId",
      j.payload, j.attempts, j.created_at AS "createdAt", j.held_until AS "heldUntil"`
}

/** Marks a job sent (or nothing left to send). Done is done, whoever holds the lease now. */
export async function completeJob(sql: Sql, id: string, note: string | null = null): Promise<void> {
  await sql`
    UPDATE delivery_jobs
    SET state = 'done', finished_at = now(), locked_until = NULL, locked_by = NULL, last_error = ${note}
    WHERE id = ${id}`
}

/** Puts a job back for another attempt after `delayMs`, if this worker still holds it. */
export async function retryJob(
  sql: Sql,
  id: string,
  workerId: string,
  delayMs: number,
  error: string,
): Promise<void> {
  await sql`
    UPDATE delivery_jobs
    SET run_at = now() + make_interval(secs => ${delayMs / 1000}), locked_until = NULL,
      locked_by = NULL, last_error = ${error.slice(0, 1000)}
    WHERE id = ${id} AND state = 'pending' AND locked_by = ${workerId}`
}

/**
 * Holds jobs back, each until its `until` (quiet hours, the e-mail delay), if
 * this worker still holds them: not an attempt, so it does not count towards
 * maxAttempts. One statement for all: a worker holds back a claimed batch's
 * e-mails together, not one round trip each.
 */
export async function deferJobs(
  sql: Sql,
  workerId: string,
  jobs: readonly { id: string; until: Date; reason: string }[],
): Promise<void> {
  if (jobs.length === 0) return
  await sql`
    UPDATE delivery_jobs d
    SET run_at = h.until, held_until = h.until, attempts = greatest(d.attempts - 1, 0),
      locked_until = NULL, locked_by = NULL, last_error = h.reason
    FROM unnest(${sql.array(jobs.map((j) => j.id))}::bigint[],
      ${sql.array(jobs.map((j) => j.until.toISOString()))}::timestamptz[],
      ${sql.array(jobs.map((j) => j.reason))}::text[]) AS h (id, until, reason)
    WHERE d.id = h.id AND d.state = 'pending' AND d.locked_by = ${workerId}`
}

/** Gives a job up: kept as failed, with the reason, until housekeeping sweeps it. */
export async function failJob(
  sql: Sql,
  id: string,
  workerId: string,
  error: string,
): Promise<void> {
  await sql`
    UPDATE delivery_jobs
    SET state = 'failed', finished_at = now(), locked_until = NULL, locked_by = NULL,
      last_error = ${error.slice(0, 1000)}
    WHERE id = ${id} AND state = 'pending' AND locked_by = ${workerId}`
}

/**
 * Milliseconds until the next pending job is due (its run_at, or the end of
 * its lease), by the database's clock; undefined when none is queued.
 */
export async function nextDueInMs(sql: Sql): Promise<number | undefined> {
  const [row] = await sql<{ ms: number | null }[]>`
    SELECT (extract(epoch FROM min(greatest(run_at, coalesce(locked_until, run_at))) - now())
      * 1000)::float8 AS ms
    FROM delivery_jobs WHERE state = 'pending'`
  return row?.ms ?? undefined
}
