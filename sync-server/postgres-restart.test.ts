import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printFigure } from './test/figure.ts'
import { runLoad } from './test/load.ts'
import {
  canRunPrivatePostgres,
  type PrivatePostgres,
  startPrivatePostgres,
} from './test/private-postgres.ts'
import { Client } from './test/server.ts'
import { buildServer, type ServerProcess, startServerProcess } from './test/server-process.ts'

// Goal 1 of issue 15 (see failover.test.ts for lost connections and an unreachable database).
const adminUrl = process.env.DATABASE_URL
const CLIENTS = 30

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// The same with PostgreSQL itself stopped as a crash would and started again: a server of
// this test's own (the machine's server is shared with other test runs), where the machine
// can run one (root or the postgres user, Debian's binaries).
describe.skipIf(!adminUrl || !canRunPrivatePostgres())(
  'the server while PostgreSQL restarts',
  () => {
    let pg: PrivatePostgres
    let removeBuild: () => Promise<void>
    let server: ServerProcess
    let check: postgres.Sql
    let clients: Client[]

    beforeAll(async () => {
      pg = await startPrivatePostgres()
      const built = await buildServer()
      removeBuild = built.remove
      server = await startServerProcess(built.entry, { DATABASE_URL: pg.url })
      check = postgres(pg.url, { max: 1, onnotice: () => {} })
      clients = await Promise.all(
        Array.from({ length: CLIENTS }, async (_, i) => {
          const client = new Client(server.url)
          const res = await client.post('/api/auth/dev-login', { userId: `restart-${i}` })
          expect(res.status, res.text).toBe(200)
          return client
        }),
      )
    }, 90_000)

    afterAll(async () => {
      if (server && server.child.exitCode !== null) console.log(server.output())
      server?.child.kill('SIGKILL')
      await check?.end({ timeout: 0 })
      await pg?.remove()
      await removeBuild?.()
    })

    it('keeps running through an immediate stop and start, answering 503 meanwhile', async () => {
      let stop = false
      const load = runLoad(clients, () => stop)
      await sleep(400)
      await pg.kill()
      const health = await fetch(`${server.url}/healthz`)
      expect(health.status).toBe(503)
      await sleep(1000)
      await pg.start()
      const started = Date.now()
      for (;;) {
        const res = await (clients[0] as Client).get('/api/notifications')
        if (res.status === 200) break
        expect(res.status, res.text).toBe(503)
        if (Date.now() - started > 10_000) throw new Error('The API did not come back in 10 s.')
        await sleep(20)
      }
      printFigure('API back after PostgreSQL restarted', Date.now() - started, 'ms', '≤ 2000 ms')
      await sleep(300)
      stop = true
      const result = await load

      expect(server.child.exitCode, server.output()).toBeNull()
      expect(result.bad, server.output()).toEqual([])
      expect(result.statuses.get(503) ?? 0).toBeGreaterThan(0)
      const subjects = result.acknowledged
      const rows = await check<{ subject: string; count: number }[]>`
        SELECT subject, count(*)::int AS count FROM topics
        WHERE subject IN ${check(subjects)} GROUP BY subject`
      expect(rows.length).toBe(new Set(subjects).size)
      expect(rows.every((row) => row.count === 1)).toBe(true)
    }, 120_000)
  },
)
