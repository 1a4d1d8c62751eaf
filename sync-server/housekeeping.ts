import { IDEMPOTENCY_KEY_RETENTION_DAYS } from '../shared/sync.ts'
import type { Sql } from './db/connect.ts'
import { REMOVAL_RETENTION_DAYS } from './sync/pull.ts'

/**
 * Deletes what has expired: sessions past their expiry and sign-in counters
 * whose window closed more than an hour ago. Safe to run on several
 * instances at once. Answers how many rows of each went.
 */
export async function sweepExpired(sql: Sql): Promise<{ sessions: number; rateLimits: number }> {
  const sessions = await sql`DELETE FROM sessions WHERE expires_at <= now()`
  const rateLimits = await sql`
    DELETE FROM rate_limits WHERE window_start < now() - interval '1 hour'`
  return { sessions: sessions.count, rateLimits: rateLimits.count }
}

/**
 * Deletes the sync history clients no longer rely on: Idempotency-Key
 * answers older than IDEMPOTENCY_KEY_RETENTION_DAYS (a mutation queued longer
 * must not be replayed blindly) and removal entries older than
 * REMOVAL_RETENTION_DAYS (a cursor that old starts again). Safe to run on
 * several instances at once. Answers how many rows of each went.
 */
export async function sweepSyncHistory(
  sql: Sql,
): Promise<{ idempotencyKeys: number; syncRemovals: number }> {
  const idempotencyKeys = await sql`
    DELETE FROM idempotency_keys
    WHERE created_at < now() - make_interval(days => ${IDEMPOTENCY_KEY_RETENTION_DAYS})`
  const syncRemovals = await sql`
    DELETE FROM sync_removals
    WHERE created_at < now() - make_interval(days => ${REMOVAL_RETENTION_DAYS})`
  return { idempotencyKeys: idempotencyKeys.count, syncRemovals: syncRemovals.count }
}

/** How long sent deliveries stay in delivery_jobs, for diagnosis. */
const DONE_DELIVERY_RETENTION_DAYS = 7
/** How long deliveries that failed for good stay, with their last error. */
const FAILED_DELIVERY_RETENTION_DAYS = 30

/** The daily budget counts one local day; a few days cover every time zone and a late retry. */
const DELIVERY_BUDGET_RETENTION_DAYS = 3

/**
 * Deletes finished delivery jobs: sent ones after DONE_DELIVERY_RETENTION_DAYS,
 * failed ones after FAILED_DELIVERY_RETENTION_DAYS. Pending jobs always stay.
 * Also the daily budget's rows of days long past. Safe to run on several
 * instances at once. Answers how many rows went.
 */
export async function sweepDeliveryJobs(
  sql: Sql,
): Promise<{ done: number; failed: number; budget: number }> {
  const done = await sql`
    DELETE FROM delivery_jobs WHERE state = 'done'
      AND finished_at < now() - make_interval(days => ${DONE_DELIVERY_RETENTION_DAYS})`
  const failed = await sql`
    DELETE FROM delivery_jobs WHERE state = 'failed'
      AND finished_at < now() - make_interval(days => ${FAILED_DELIVERY_RETENTION_DAYS})`
  const budget = await sql`
    DELETE FROM delivery_budget
    WHERE local_date < current_date - ${DELIVERY_BUDGET_RETENTION_DAYS}::int`
  return { done: done.count, failed: failed.count, budget: budget.count }
}

/** Sweeps at start and then every `intervalMs`; answers a function that stops it. */
export function startHousekeeping(sql: Sql, intervalMs = 60 * 60 * 1000): () => void {
  const run = () =>
    Promise.all([sweepExpired(sql), sweepSyncHistory(sql), sweepDeliveryJobs(sql)]).catch(
      (error: unknown) =>
        console.warn('Housekeeping failed:', error instanceof Error ? error.message : error),
    )
  void run()
  const timer = setInterval(run, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
