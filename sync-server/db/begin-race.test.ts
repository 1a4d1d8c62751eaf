import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test/server.ts'

// postgres.js 3.4.9 could send a transaction's BEGIN without reserving its
// connection when the BEGIN filled the connection's pipeline (upstream #823,
// #1189): the transaction failed with UNSAFE_TRANSACTION, or other queries ran
// inside it. 200 first syncs at once (bench:sync) hit it. Our patch
// (patches/postgres+3.4.9.patch) reserves the connection whenever BEGIN is written.

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.stop())

describe.skipIf(!process.env.DATABASE_URL)('sql.begin under a full pipeline (PostgreSQL)', () => {
  it('reserves its connection: no UNSAFE_TRANSACTION, and no query runs inside another transaction', async () => {
    // The upstream reproduction: few connections, a short pipeline, all busy.
    // max_pipeline is an option of postgres.js that its types leave out.
    const pipeline = { max_pipeline: 2 } as Record<string, unknown>
    const sql = postgres(server.databaseUrl as string, { max: 3, onnotice: () => {}, ...pipeline })
    const failures: string[] = []
    try {
      for (let round = 0; round < 8; round++) {
        const busy = [1, 2, 3].map(() => sql`SELECT pg_sleep(0.15)`)
        // Each statement outside a transaction gets an xid of its own; one run inside a
        // transaction shares that transaction's.
        const plain = Array.from({ length: 6 }, () =>
          sql<{ xid: string }[]>`SELECT txid_current()::text AS xid`.then((r) => r[0]?.xid ?? ''),
        )
        const transactions = Array.from({ length: 5 }, () =>
          sql.begin(async (tx) => {
            await tx`SELECT pg_sleep(0.01)`
            const [row] = await tx<{ xid: string }[]>`SELECT txid_current()::text AS xid`
            return row?.xid ?? ''
          }),
        )
        const settled = await Promise.allSettled([...busy, ...plain, ...transactions])
        const xids: string[] = []
        for (const result of settled) {
          if (result.status === 'rejected') failures.push(String(result.reason))
          else if (typeof result.value === 'string') xids.push(result.value)
        }
        if (new Set(xids).size !== xids.length) {
          failures.push(`statements shared a transaction: ${xids.join(' ')}`)
        }
      }
    } finally {
      await sql.end({ timeout: 5 })
    }
    expect(failures).toEqual([])
  }, 60_000)
})
