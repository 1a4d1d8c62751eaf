import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printFigure } from './test/figure.ts'
import { type Balancer, startBalancer } from './test/http-balancer.ts'
import { runLoad } from './test/load.ts'
import { Client } from './test/server.ts'
import {
  buildServer,
  createDatabase,
  type ServerProcess,
  startServerProcess,
} from './test/server-process.ts'

// Goal 2 of issue 15: two instances behind a load balancer that checks /healthz, restarted one
// after the other under the load of 20 clients, fail no request and lose no write. Several
// instances on one database need a real PostgreSQL.
const adminUrl = process.env.DATABASE_URL
const CLIENTS = 20
const DRAIN_MS = 1000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!adminUrl)('a rolling restart of two instances behind a load balancer', () => {
  let entry: string
  let removeBuild: () => Promise<void>
  let database: Awaited<ReturnType<typeof createDatabase>>
  let balancer: Balancer
  const instances: ServerProcess[] = []

  const start = async () => {
    const instance = await startServerProcess(entry, {
      DATABASE_URL: database.url,
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    })
    instances.push(instance)
    return instance
  }

  beforeAll(async () => {
    const built = await buildServer()
    entry = built.entry
    removeBuild = built.remove
    database = await createDatabase(adminUrl ?? '')
    balancer = await startBalancer()
  }, 60_000)

  afterAll(async () => {
    for (const instance of instances) {
      if (instance.child.exitCode === null && instance.child.signalCode === null) {
        instance.child.kill('SIGKILL')
      }
    }
    await balancer?.close()
    await database?.drop()
    await removeBuild?.()
  })

  /** Resolves once the balancer sees exactly `urls` as healthy. */
  async function untilHealthy(urls: string[]): Promise<void> {
    const wanted = [...urls].sort().join(' ')
    for (let i = 0; i < 200; i++) {
      if ([...balancer.healthy()].sort().join(' ') === wanted) return
      await sleep(50)
    }
    throw new Error(`The balancer never saw ${wanted} healthy (it sees ${balancer.healthy()}).`)
  }

  it('fails no request, loses no write, ends event streams with a retry hint', async () => {
    let a = await start()
    let b = await start()
    balancer.setBackends([a.url, b.url])
    await untilHealthy([a.url, b.url])
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const client = new Client(balancer.url)
        const res = await client.post('/api/auth/dev-login', { userId: `rolling-${i}` })
        expect(res.status, res.text).toBe(200)
        return client
      }),
    )
    let stop = false
    const load = runLoad(clients, () => stop)

    /** Stops `old` with SIGTERM while its replacement starts; answers the replacement. */
    const restart = async (old: ServerProcess, other: ServerProcess) => {
      // An event stream on the instance that stops: it must end with a reconnect hint.
      const stream = await fetch(`${old.url}/api/sync/events`, {
        headers: { cookie: (clients[0] as Client).cookie ?? '', accept: 'text/event-stream' },
      })
      expect(stream.status).toBe(200)
      const streamText = stream.text()
      await sleep(300)
      const stoppedAt = Date.now()
      old.child.kill('SIGTERM')
      const replacement = await start()
      balancer.setBackends([old.url, other.url, replacement.url])
      const exit = await old.exited
      const took = Date.now() - stoppedAt
      expect(exit, old.output()).toEqual({ code: 0, signal: null })
      printFigure('SIGTERM to exit', took, 'ms', `≤ 10000 ms, drain ${DRAIN_MS} ms`)
      expect(await streamText).toMatch(/\nretry: \d{4}\n/)
      expect(old.output()).toContain('Stopped.')
      balancer.setBackends([other.url, replacement.url])
      await untilHealthy([other.url, replacement.url])
      await sleep(500)
      return replacement
    }

    await sleep(500)
    a = await restart(a, b)
    b = await restart(b, a)
    stop = true
    const result = await load

    expect(result.bad).toEqual([])
    expect(result.statuses.get(201) ?? 0).toBeGreaterThan(CLIENTS)
    const subjects = result.acknowledged
    const check = postgres(database.url, { max: 1, onnotice: () => {} })
    try {
      const rows = await check<{ subject: string; count: number }[]>`
        SELECT subject, count(*)::int AS count FROM topics
        WHERE subject IN ${check(subjects)} GROUP BY subject`
      expect(rows.length).toBe(new Set(subjects).size)
      expect(rows.every((row) => row.count === 1)).toBe(true)
    } finally {
      await check.end()
    }
  }, 120_000)
})
