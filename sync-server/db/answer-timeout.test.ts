import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test/server.ts'
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.ts'
import { openDatabase } from './connect.ts'

// A database that goes silent (a failover that moved its address, packets dropped) never
// closes the driver's connections: a statement sent then waited until TCP gave up, for
// minutes. The pool now gives such a connection up after DATABASE_ANSWER_TIMEOUT_MS (an
// option of our postgres.js patch, decision 0021). Through a proxy that silences the database.

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.stop())

/** Well above what a statement here takes even on a busy machine, which would be cut. */
const TIMEOUT_MS = 1500

/** What became of a query within `ms`: its answer, its error's code, or still waiting. */
function within(ms: number, query: Promise<unknown>): Promise<string> {
  return Promise.race([
    query.then(
      () => 'answered',
      (error: { code?: string }) => `failed ${error.code}`,
    ),
    new Promise<string>((resolve) => setTimeout(resolve, ms, 'still waiting')),
  ])
}

describe.skipIf(!process.env.DATABASE_URL)('a database that goes silent (PostgreSQL)', () => {
  let proxy: TcpProxy
  let url: string

  beforeAll(async () => {
    const target = new URL(server.databaseUrl as string)
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432))
    const through = new URL(target)
    through.host = `127.0.0.1:${proxy.port}`
    url = through.toString()
  })
  afterAll(() => proxy?.close())

  /** The server's pool through the proxy, with a short answer timeout. */
  const open = (poolSize = 2) =>
    openDatabase({ databaseUrl: url, dataDir: '', poolSize, answerTimeoutMs: TIMEOUT_MS })

  it('gives up a statement nobody answers, and reconnects once a database answers again', async () => {
    const db = await open()
    try {
      expect(await within(10_000, db.sql`SELECT 1`)).toBe('answered')
      proxy.silence()
      // Given up as a socket timeout, which the server answers 503 with Retry-After.
      expect(await within(10_000, db.sql`SELECT 2`)).toBe('failed ETIMEDOUT')
      proxy.restore()
      expect(await within(10_000, db.sql`SELECT 3`)).toBe('answered')
    } finally {
      proxy.restore()
      await db.close()
    }
  }, 60_000)

  it('fails every query waiting for a connection that could not be opened, after one try', async () => {
    const db = await open(1)
    try {
      expect(await within(10_000, db.sql`SELECT 1`)).toBe('answered')
      proxy.silence()
      expect(await within(10_000, db.sql`SELECT 2`)).toBe('failed ETIMEDOUT')
      // One of these opens a connection, which is never answered; the others wait for it.
      // Each used to get a connect of its own when the one before had timed out, one after
      // another: 5 s each here, longer for a query further back.
      const tries = proxy.accepted()
      const waiting = [1, 2, 3, 4].map((n) => within(30_000, db.sql`SELECT ${n}::int`))
      const outcomes = await Promise.all(waiting)
      expect(outcomes.every((outcome) => outcome.startsWith('failed'))).toBe(true)
      expect(proxy.accepted() - tries).toBe(1)
      proxy.restore()
      expect(await within(10_000, db.sql`SELECT 5`)).toBe('answered')
    } finally {
      proxy.restore()
      await db.close()
    }
  }, 60_000)

  it('never gives up an idle connection, one inside a transaction, nor a cursor waiting on its reader', async () => {
    const db = await open()
    const pause = () => new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 500))
    try {
      await db.sql`SELECT 1`
      await pause()
      expect(await within(10_000, db.sql`SELECT 2`)).toBe('answered')
      const inTransaction = db.sql.begin(async (tx) => {
        await tx`SELECT 1`
        await pause()
        return tx`SELECT 2`
      })
      expect(await within(10_000, inTransaction)).toBe('answered')
      // A reader slower than the timeout between rows, and rows slow to come (each under it).
      let rows = 0
      const cursor =
        db.sql`SELECT pg_sleep(${TIMEOUT_MS / 5000}), n FROM generate_series(1, 2) AS n`.cursor(
          1,
          async () => {
            rows += 1
            await pause()
          },
        )
      expect(await within(20_000, cursor)).toBe('answered')
      expect(rows).toBe(2)
    } finally {
      await db.close()
    }
  }, 60_000)

  it('runs migrations untimed: a statement may take longer there', async () => {
    const db = await open()
    try {
      const slow = (sql: typeof db.sql) => sql`SELECT pg_sleep(${(TIMEOUT_MS * 2) / 1000})`
      expect(await within(10_000, db.untimed(slow))).toBe('answered')
      // The pool's own connections give up on it (why the timeout is far above any request's).
      expect(await within(10_000, slow(db.sql))).toBe('failed ETIMEDOUT')
      // Ending the pool right then, before the given-up socket has closed: without a limit, it
      // waited for ever (the driver's end() waited for that connection's last query).
      expect(await within(10_000, db.sql.end())).toBe('answered')
    } finally {
      await db.close()
    }
  }, 60_000)
})
