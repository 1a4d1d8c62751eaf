import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test/server.ts'

// postgres.js 3.4.9: when a transaction's connection closes (its backend
// terminated, a failover), sql.begin() rejects but its callback runs on, and
// its later statements went to the same connection object once the pool had
// reconnected it for someone else: inside another request's transaction, whose
// COMMIT the lost callback could send, and pipelined beside that transaction's
// own statements so that one of them waited forever for its answer (upstream
// #1186, #1216; the hang seen in failover.test.ts). Our patch
// (patches/postgres+3.4.9.patch, decision 0021) rejects a lost transaction's
// statements at once, and those it had queued.

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
  await server.sql`CREATE TABLE IF NOT EXISTS begin_closed_probe (tx text NOT NULL)`
})
afterAll(() => server?.stop())

/** A promise and the function that settles it. */
function gate() {
  let open = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { open, opened }
}

describe.skipIf(!process.env.DATABASE_URL)(
  'sql.begin after its connection closed (PostgreSQL)',
  () => {
    it('rejects what the lost transaction still sends; the next transaction on that connection keeps to itself', async () => {
      // One connection: the lost transaction's and the next one's are the same connection object.
      const sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} })
      const lostMayGoOn = gate()
      const nextMayCommit = gate()
      const lostSent: PromiseSettledResult<unknown>[] = []
      try {
        let pid = 0
        const lost = sql.begin(async (tx) => {
          const [row] = await tx<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`
          pid = row?.pid ?? 0
          await lostMayGoOn.opened
          // After its connection was lost: an insert, then a second one, as a request's code would.
          lostSent.push(
            ...(await Promise.allSettled([
              tx`INSERT INTO begin_closed_probe (tx) VALUES ('lost')`,
              tx`INSERT INTO begin_closed_probe (tx) VALUES ('lost, queued')`,
            ])),
          )
        })
        const lostEnded = lost.then(
          () => 'committed',
          (error: unknown) => `rejected: ${(error as Error).message}`,
        )
        while (pid === 0) await new Promise((resolve) => setTimeout(resolve, 5))
        await server.sql`SELECT pg_terminate_backend(${pid})`
        expect(await lostEnded).toMatch(/^rejected/)

        // The pool reconnects for the next transaction, which inserts and waits; meanwhile the
        // lost callback goes on.
        const inserted = gate()
        const next = sql.begin(async (tx) => {
          await tx`INSERT INTO begin_closed_probe (tx) VALUES ('next')`
          inserted.open()
          await nextMayCommit.opened
          const [row] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM begin_closed_probe`
          return row?.n
        })
        await inserted.opened
        lostMayGoOn.open()
        await new Promise((resolve) => setTimeout(resolve, 200))
        nextMayCommit.open()

        // The next transaction ends, having seen only its own row.
        const seen = await Promise.race([
          next,
          new Promise((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000)),
        ])
        expect(seen).toBe(1)
        expect(lostSent.map((s) => s.status)).toEqual(['rejected', 'rejected'])
        const rows = await server.sql<{ tx: string }[]>`SELECT tx FROM begin_closed_probe`
        expect(rows.map((r) => r.tx)).toEqual(['next'])
      } finally {
        lostMayGoOn.open()
        nextMayCommit.open()
        await sql.end({ timeout: 5 })
      }
    }, 60_000)
  },
)
