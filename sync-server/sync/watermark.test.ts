import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInAdmin } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { emptyReplica, holdTransaction, pullToEnd, type Replica } from './testing.ts'
import { readBounds } from './watermark.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'watermark-admin')
})
afterAll(() => server?.stop())

/** The URL of another database on the same cluster (the maintenance database). */
const otherDatabase = (url: string) => {
  const u = new URL(url)
  u.pathname = '/postgres'
  return u.toString()
}

/** The admin's replica, synced to the end now (later pulls bring only what is new). */
async function syncedReplica(): Promise<Replica> {
  const replica = emptyReplica()
  await pullToEnd(admin, replica)
  return replica
}

/** Whether the next pull of `replica` brings the topic (once the watermark has passed its write). */
async function pullShows(replica: Replica, subject: string): Promise<boolean> {
  await pullToEnd(admin, replica)
  return Object.values(replica.tables.topics).some(
    (t) => (t as { subject?: string }).subject === subject,
  )
}

async function createTopic(subject: string): Promise<void> {
  const res = await admin.post('/api/topics', {
    subject,
    description: '<p>Watermark</p>',
    maxMentees: 1,
    seniorityRequired: ['junior'],
    location: 'online',
    interests: [],
  })
  expect(res.status).toBe(201)
}

describe('the sync watermark', () => {
  it('is not held back by a transaction of another database on the same cluster', async (ctx) => {
    if (!server.databaseUrl) return ctx.skip() // the embedded database has no other databases
    const other = await holdTransaction(otherDatabase(server.databaseUrl), async (tx) => {
      const [row] = await tx<{ xid: string }[]>`SELECT pg_current_xact_id()::text AS xid`
      return BigInt(row?.xid ?? '0')
    })
    try {
      const replica = await syncedReplica()
      const subject = `Written while another database works ${Date.now()}`
      await createTopic(subject)
      const bounds = await readBounds(server.sql)
      expect(bounds.xmin).toBeGreaterThan(other.value)
      expect(await pullShows(replica, subject)).toBe(true)
    } finally {
      await other.commit()
    }
  })

  it('is held back by a transaction of this database until it ends', async (ctx) => {
    if (!server.databaseUrl) return ctx.skip() // one connection: nothing can stay open beside
    const mine = await holdTransaction(server.databaseUrl, async (tx) => {
      const [row] = await tx<{ xid: string }[]>`SELECT pg_current_xact_id()::text AS xid`
      return BigInt(row?.xid ?? '0')
    })
    const replica = await syncedReplica()
    const subject = `Written while this database works ${Date.now()}`
    try {
      await createTopic(subject)
      expect((await readBounds(server.sql)).xmin).toBeLessThanOrEqual(mine.value)
      expect(await pullShows(replica, subject)).toBe(false)
    } finally {
      await mine.commit()
    }
    expect((await readBounds(server.sql)).xmin).toBeGreaterThan(mine.value)
    expect(await pullShows(replica, subject)).toBe(true)
  })

  it('is the snapshot xmax when nothing of this database runs', async () => {
    const [row] = await server.sql<{ xmax: string }[]>`
      SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`
    const bounds = await readBounds(server.sql)
    expect(bounds.xmin).toBeLessThanOrEqual(bounds.xmax)
    expect(bounds.xmax).toBeGreaterThanOrEqual(BigInt(row?.xmax ?? '0'))
  })
})
