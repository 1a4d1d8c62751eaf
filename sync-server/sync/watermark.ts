import type { Db } from '../db/connect.ts'

/** The bounds of the current snapshot as far as this database is concerned. */
export type Bounds = {
  /**
   * The oldest transaction of this database that may still be running (the
   * watermark): every transaction of this database below it has finished.
   */
  xmin: bigint
  /** Every transaction below this had started when the snapshot was taken. */
  xmax: bigint
}

/**
 * Reads the watermark. PostgreSQL's own snapshot xmin counts the running
 * transactions of every database in the cluster, so a long transaction in
 * another database (another application's, a report, a migration of a test
 * database) would hold back every client's changes here although it cannot
 * write a row of this database. The watermark is therefore the oldest
 * in-progress transaction of the snapshot that is not known to belong to
 * another database; a transaction whose database cannot be told (it ended
 * meanwhile, or its session is not visible to this role) counts as ours, so
 * the watermark is never above a transaction that could write here.
 *
 * Run it as the first statement of a pull's transaction: it reads that
 * transaction's snapshot.
 */
export async function readBounds(db: Db): Promise<Bounds> {
  const [row] = await db<{ xmin: string | null; xmax: string }[]>`
    WITH s AS (SELECT pg_current_snapshot() AS snap),
    other AS (
      SELECT backend_xid AS xid FROM pg_stat_activity
      WHERE backend_xid IS NOT NULL
        AND datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
      UNION ALL
      SELECT transaction FROM pg_prepared_xacts WHERE database <> current_database()
    )
    SELECT
      (SELECT min(x) FROM s, pg_snapshot_xip(s.snap) AS x
        WHERE NOT EXISTS (SELECT 1 FROM other WHERE other.xid = xid(x)))::text AS xmin,
      pg_snapshot_xmax(s.snap)::text AS xmax
    FROM s`
  const xmax = BigInt(row?.xmax ?? '0')
  return { xmin: row?.xmin ? BigInt(row.xmin) : xmax, xmax }
}
