import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printFigure } from './test/figure.ts'
import { type Balancer, startBalancer } from './test/http-balancer.ts'
import { type Answer, Client } from './test/server.ts'
import {
  buildServer,
  createDatabase,
  type ServerProcess,
  startServerProcess,
} from './test/server-process.ts'

// Goal 3 of issue 15: three instances on one database behind a load balancer behave as one
// server. Needs a real PostgreSQL. Each instance trusts X-Forwarded-For (as behind a real
// balancer), so that every test client has an address of its own for the sign-in rate limit.
const adminUrl = process.env.DATABASE_URL
const RATE_LIMIT = 10

let database: Awaited<ReturnType<typeof createDatabase>>
let removeBuild: () => Promise<void>
let instances: ServerProcess[] = []
let balancer: Balancer
let sql: postgres.Sql
let addresses = 0

/** A client signed in (dev-login) at `baseUrl`, from an address of its own. */
async function signIn(baseUrl: string, username: string): Promise<Client> {
  addresses += 1
  const client = new Client(baseUrl)
  const res = await client.post(
    '/api/auth/dev-login',
    { userId: username },
    { headers: { 'x-forwarded-for': `10.1.${addresses >> 8}.${addresses & 255}` } },
  )
  expect(res.status, res.text).toBe(200)
  client.user = res.body
  return client
}

/** The same session, talking to another instance. */
function on(instance: ServerProcess, client: Client): Client {
  const moved = new Client(instance.url)
  moved.cookie = client.cookie
  moved.user = client.user
  return moved
}

async function approvedTopic(mentor: Client, admin: Client, maxMentees: number) {
  const created = await mentor.post('/api/topics', {
    subject: `Scale ${Math.random()}`,
    maxMentees,
    seniorityRequired: ['junior'],
  })
  expect(created.status, created.text).toBe(201)
  const reviewed = await admin.post(`/api/admin/topics/${created.body.id}/review`, {
    status: 'approved',
  })
  expect(reviewed.status, reviewed.text).toBe(200)
  return created.body as { id: string; subject: string }
}

async function makeAdmin(client: Client): Promise<Client> {
  await sql`UPDATE users SET is_admin = true WHERE id = ${client.user?.id ?? ''}`
  return client
}

describe.skipIf(!adminUrl)('three instances on one database behind a load balancer', () => {
  beforeAll(async () => {
    const built = await buildServer()
    removeBuild = built.remove
    database = await createDatabase(adminUrl ?? '')
    sql = postgres(database.url, { max: 2, onnotice: () => {} })
    // One after the other: the first applies the migrations.
    for (let i = 0; i < 3; i++) {
      instances.push(
        await startServerProcess(built.entry, {
          DATABASE_URL: database.url,
          DATABASE_POOL_SIZE: '5',
          TRUST_PROXY: 'true',
          AUTH_RATE_LIMIT: String(RATE_LIMIT),
          EMAIL_DELAY_MINUTES: '0',
        }),
      )
    }
    balancer = await startBalancer()
    balancer.setBackends(instances.map((i) => i.url))
  }, 90_000)

  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGKILL')
    instances = []
    await balancer?.close()
    await sql?.end()
    await database?.drop()
    await removeBuild?.()
  })

  it('knows a session made on one instance on every instance', async () => {
    const [a, b, c] = instances as [ServerProcess, ServerProcess, ServerProcess]
    const me = await signIn(a.url, 'everywhere')
    for (const instance of [a, b, c]) {
      const res = await on(instance, me).get('/api/user')
      expect(res.status, res.text).toBe(200)
      expect(res.body.username).toBe('everywhere')
    }
    const out = await on(b, me).get('/api/auth/logout')
    expect(out.status).toBe(302)
    for (const instance of [a, b, c])
      expect((await on(instance, me).get('/api/user')).status).toBe(401)
  })

  it('keeps an idle connection open longer than a load balancer does', async () => {
    // Node's own 5 s would close connections a balancer still holds open (60 s on the
    // common cloud ones) and send the next request on it to a 502.
    for (const instance of instances) {
      const res = await fetch(`${instance.url}/healthz`)
      expect(res.status).toBe(200)
      expect(res.headers.get('keep-alive')).toBe('timeout=65')
    }
  })

  it('pokes an event stream on A when a change is made through B', async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess]
    const mentor = await signIn(a.url, 'poked-mentor')
    const admin = await makeAdmin(await signIn(b.url, 'poking-admin'))
    const created = await mentor.post('/api/topics', {
      subject: 'Poke across instances',
      maxMentees: 1,
      seniorityRequired: ['junior'],
    })
    expect(created.status).toBe(201)

    const stream = await fetch(`${a.url}/api/sync/events`, {
      headers: { cookie: mentor.cookie ?? '', accept: 'text/event-stream' },
    })
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let seen = ''
    const until = async (event: string) => {
      while (!seen.includes(`event: ${event}`)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`The stream ended before "${event}": ${seen}`)
        seen += decoder.decode(value)
      }
      seen = seen.slice(seen.indexOf(`event: ${event}`) + 6 + event.length)
    }
    await until('ready')
    const changedAt = Date.now()
    const reviewed = await admin.post(`/api/admin/topics/${created.body.id}/review`, {
      status: 'approved',
    })
    expect(reviewed.status, reviewed.text).toBe(200)
    await until('poke')
    printFigure('poke on A after a change through B', Date.now() - changedAt, 'ms', '≤ 2000 ms')
    await reader.cancel()
  })

  it('applies one Idempotency-Key sent to all three at once once, with identical answers', async () => {
    const me = await signIn(instances[0]?.url ?? '', 'idempotent')
    const body = { subject: 'Sent three times', maxMentees: 1, seniorityRequired: ['junior'] }
    const answers = await Promise.all(
      instances.map((instance) =>
        on(instance, me).post('/api/topics', body, { headers: { 'idempotency-key': 'once' } }),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201])
    expect(new Set(answers.map((a) => a.text)).size).toBe(1)
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(2)
    const [row] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM topics WHERE subject = 'Sent three times'`
    expect(row?.n).toBe(1)
  })

  it('never accepts more than maxMentees in a 50-way accept race across instances', async () => {
    const admin = await makeAdmin(await signIn(balancer.url, 'race-admin'))
    const mentor = await signIn(balancer.url, 'race-mentor')
    const topic = await approvedTopic(mentor, admin, 2)
    const applications = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const mentee = await signIn(balancer.url, `racer-${i}`)
        const res = await mentee.post(`/api/topics/${topic.id}/apply`)
        expect(res.status, res.text).toBe(201)
        return res.body.id as string
      }),
    )
    const answers: Answer[] = await Promise.all(
      applications.map((id, i) =>
        on(instances[i % 3] as ServerProcess, mentor).patch(`/api/applications/${id}`, {
          status: 'accepted',
        }),
      ),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2)
    expect(answers.filter((a) => a.status === 409)).toHaveLength(48)
    const [row] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM applications WHERE topic_id = ${topic.id} AND status = 'accepted'`
    expect(row?.n).toBe(2)
  })

  it('sends each delivery job once, whichever instance takes it', async () => {
    const admin = await makeAdmin(await signIn(balancer.url, 'mail-admin'))
    const mentor = await signIn(balancer.url, 'mail-mentor')
    const topic = await approvedTopic(mentor, admin, 2)
    const applications: string[] = []
    for (let i = 0; i < 12; i++) {
      const mentee = await signIn(balancer.url, `mail-mentee-${i}`)
      await sql`UPDATE users SET email = ${`mail-mentee-${i}@example.com`} WHERE id = ${mentee.user?.id ?? ''}`
      const res = await mentee.post(`/api/topics/${topic.id}/apply`)
      expect(res.status).toBe(201)
      applications.push(res.body.id)
    }
    // Twelve decisions, each e-mailed to its mentee (decisions are outside the daily budget).
    for (const [i, id] of applications.entries()) {
      const res = await on(instances[i % 3] as ServerProcess, mentor).patch(
        `/api/applications/${id}`,
        { status: 'rejected', rejectionReason: 'The places are taken' },
      )
      expect(res.status, res.text).toBe(200)
    }
    // Every job done; each e-mail in exactly one instance's log.
    const deadline = Date.now() + 30_000
    for (;;) {
      const [pending] = await sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM delivery_jobs WHERE state <> 'done'`
      if (pending?.n === 0) break
      if (Date.now() > deadline) throw new Error(`${pending?.n} delivery jobs never finished.`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const mails = instances.flatMap((instance) =>
      instance
        .output()
        .split('E-mail not sent')
        .filter((m) => m.includes('To: mail-mentee-') && m.includes(' was not accepted.')),
    )
    expect(mails).toHaveLength(12)
    for (let i = 0; i < 12; i++) {
      expect(mails.filter((m) => m.includes(`To: mail-mentee-${i}@example.com`))).toHaveLength(1)
    }
    const spread = instances.map(
      (instance) => instance.output().split('To: mail-mentee-').length - 1,
    )
    printFigure(
      'instances that sent some of the 12 e-mails',
      spread.filter((n) => n > 0).length,
      'of 3',
      'any',
    )
  })

  it('holds the sign-in rate limit across instances', async () => {
    const answers: number[] = []
    for (let i = 0; i < RATE_LIMIT + 5; i++) {
      const res = await new Client(instances[i % 3]?.url ?? '').post(
        '/api/auth/dev-login',
        { userId: `limited-${i}` },
        { headers: { 'x-forwarded-for': '203.0.113.7' } },
      )
      answers.push(res.status)
    }
    expect(answers.filter((s) => s === 200)).toHaveLength(RATE_LIMIT)
    expect(answers.filter((s) => s === 429)).toHaveLength(5)
  })
})
