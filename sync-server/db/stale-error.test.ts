import type { Socket } from 'node:net'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test/server.ts'
import { startTcpProxy } from '../test/tcp-proxy.ts'

// postgres.js 3.4.9: a connection whose backend is terminated while a query
// runs keeps that query and the error PostgreSQL sent before closing (57P01,
// "terminating connection due to administrator command"). When the pool opens
// the connection again for the next query, the first ReadyForQuery of the new
// session found the old error and failed the new query with it: one request
// after every failover answered 503 although the database was back. The same
// happened to a connection terminated while it loaded the array types, the
// first thing a new connection does (upstream #1223). And a statement sent
// between a reset socket's 'error' and its 'close' stayed in the pipeline for
// the next session, which took it for its own running query and hung. Our
// patch (patches/postgres+3.4.9.patch, decision 0021) fails what the lost
// session has not answered and forgets it when the connection closes.

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.stop())

describe.skipIf(!process.env.DATABASE_URL)(
  'the first query after a connection was lost (PostgreSQL)',
  () => {
    it('runs on the new connection instead of failing with the lost one’s error', async () => {
      // One connection: the lost query's and the next one's are the same connection object.
      const sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} })
      try {
        const tag = `stale-error-${process.pid}-${Date.now()}`
        const sleeping = sql.unsafe(`SELECT pg_sleep(30) /* ${tag} */`).then(
          () => 'answered',
          (error: unknown) => `rejected: ${(error as Error).message}`,
        )
        let pid: number | undefined
        for (let i = 0; i < 200 && pid === undefined; i++) {
          const [row] = await server.sql<{ pid: number }[]>`
            SELECT pid FROM pg_stat_activity
            WHERE state = 'active' AND query LIKE ${`%${tag}%`} AND pid <> pg_backend_pid()`
          pid = row?.pid
          if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 25))
        }
        expect(pid).toBeDefined()
        await server.sql`SELECT pg_terminate_backend(${pid as number})`
        expect(await sleeping).toMatch(/^rejected/)

        const next = await sql`SELECT 1 AS one`.then(
          (rows) => rows[0]?.one,
          (error: unknown) => `rejected: ${(error as Error).message}`,
        )
        expect(next).toBe(1)
      } finally {
        await sql.end({ timeout: 5 })
      }
    }, 60_000)

    it('runs on the next connection when the first one is terminated while it loads the types', async () => {
      // A proxy in front of PostgreSQL answers the first connection's array-types query as a
      // terminated backend does (ErrorResponse 57P01, then the close); later ones pass through.
      const proxy = await terminatingProxy(/typarray/)
      const url = new URL(server.databaseUrl as string)
      url.host = `127.0.0.1:${proxy.port}`
      const sql = postgres(url.toString(), { max: 1, onnotice: () => {} })
      try {
        const first = await sql`SELECT 1 AS one`.then(
          (rows) => rows[0]?.one,
          (error: unknown) => `rejected: ${(error as Error).message}`,
        )
        expect(proxy.terminated()).toBe(1)
        expect(first).toBe(1)
      } finally {
        await sql.end({ timeout: 5 })
        await proxy.close()
      }
    }, 60_000)

    it('fails a statement sent between the socket’s error and its close, and serves the next one', async () => {
      // A reset connection emits 'error' (the running query is rejected) and only later
      // 'close'. A statement sent in between went after the rejected one and stayed in the
      // connection's pipeline: the next session took it for its own running query, answered
      // it with another statement's result or never, and the pool stopped using the connection.
      const target = new URL(server.databaseUrl as string)
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432))
      const url = new URL(target)
      url.host = `127.0.0.1:${proxy.port}`
      const sql = postgres(url.toString(), { max: 1, onnotice: () => {} })
      const settled = (query: Promise<unknown>) =>
        Promise.race([
          query.then(
            () => 'answered',
            () => 'rejected',
          ),
          new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting after 10 s')),
        ])
      try {
        await sql`SELECT 1`
        const sleeping = sql`SELECT pg_sleep(30)`.execute()
        await new Promise((resolve) => setTimeout(resolve, 200))
        proxy.cut()
        await sleeping.catch(() => {})
        // The socket has errored; it closes a moment later.
        const late = sql`SELECT 2 AS two`.execute()
        expect(await settled(late)).toBe('rejected')
        proxy.restore()
        const after = await Promise.race([
          (async () => {
            const rows = []
            for (let i = 3; i < 6; i++) rows.push((await sql`SELECT ${i}::int AS n`)[0]?.n)
            return rows
          })(),
          new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting after 10 s')),
        ])
        expect(after).toEqual([3, 4, 5])
      } finally {
        await sql.end({ timeout: 1 })
        await proxy.close()
      }
    }, 60_000)
  },
)

/** The ErrorResponse PostgreSQL sends a backend's client when pg_terminate_backend ends it. */
function terminationMessage(): Buffer {
  const fields = Buffer.concat([
    ...[
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', '57P01'],
      ['M', 'terminating connection due to administrator command'],
      ['R', 'ProcessInterrupts'],
    ].map(([code, text]) => Buffer.from(`${code}${text}\0`)),
    Buffer.from([0]),
  ])
  const head = Buffer.alloc(5)
  head.write('E', 0)
  head.writeInt32BE(fields.length + 4, 1)
  return Buffer.concat([head, fields])
}

/**
 * A TCP proxy to the test's PostgreSQL whose first connection is ended as if its
 * backend were terminated the moment the client has sent something matching `when`.
 */
async function terminatingProxy(when: RegExp) {
  const target = new URL(server.databaseUrl as string)
  let terminations = 0
  const seen = new WeakMap<Socket, string>()
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432), {
    fromClient: (data, client, upstream) => {
      const sent = (seen.get(client) ?? '') + data.toString('latin1')
      seen.set(client, sent)
      if (terminations > 0 || !when.test(sent)) return false
      terminations += 1
      client.end(terminationMessage())
      upstream.destroy()
      return true
    },
  })
  return { ...proxy, terminated: () => terminations }
}
