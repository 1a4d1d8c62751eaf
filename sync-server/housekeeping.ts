import type { Sql } from './db/connect.ts'

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

/** Sweeps at start and then every `intervalMs`; answers a function that stops it. */
export function startHousekeeping(sql: Sql, intervalMs = 60 * 60 * 1000): () => void {
  const run = () =>
    sweepExpired(sql).catch((error: unknown) =>
      console.warn('Housekeeping failed:', error instanceof Error ? error.message : error),
    )
  void run()
  const timer = setInterval(run, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
