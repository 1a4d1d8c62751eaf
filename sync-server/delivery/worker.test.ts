import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { sweepDeliveryJobs } from '../housekeeping.ts'
import { type FakeDevice, type FakePushService, startFakePushService } from '../push/testing.ts'
import { storedVapidKeys } from '../push/vapid.ts'
import { approvedTopic, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import type { DeliveryOptions } from './options.ts'
import { type Delivery, enqueueDeliveries } from './queue.ts'
import { backoffMs } from './send-job.ts'
import { type DeliveryWorker, startDeliveryWorker } from './worker.ts'

let server: TestServer
let push: FakePushService
let admin: Client
const workers: DeliveryWorker[] = []
const warnings: string[] = []
const log = { info: () => {}, warn: (line: string) => warnings.push(line) }

beforeAll(async () => {
  server = await startTestServer()
  push = await startFakePushService()
  admin = await signInAdmin(server, 'worker-admin')
})
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()))
})
afterAll(async () => {
  await push?.close()
  await server?.stop()
})

function startWorker(options: Partial<DeliveryOptions> = {}, on: TestServer = server) {
  const worker = startDeliveryWorker(on.sql, on.config, { log, pollMs: 100, ...options })
  workers.push(worker)
  return worker
}

type Job = { id: string; state: string; attempts: number; lastError: string | null }

async function jobsOf(userId: string): Promise<Job[]> {
  return server.sql<Job[]>`
    SELECT id::text, state, attempts, last_error AS "lastError"
    FROM delivery_jobs WHERE user_id = ${userId} ORDER BY id`
}

async function until(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** A subscribed mentor and a function that makes a mentee apply to their topic. */
async function mentorAndApplicant() {
  const mentor = await server.signIn(unique('w-mentor'))
  const topic = await approvedTopic(admin, mentor, { subject: unique('Worker topic') })
  const device = push.device(unique('w-phone'))
  expect((await mentor.post('/api/push/subscriptions', device.subscription)).status).toBe(201)
  const apply = async () => {
    const mentee = await server.signIn(unique('w-mentee'))
    expect((await mentee.post(`/api/topics/${topic.id}/apply`)).status).toBe(201)
  }
  return { mentorId: mentor.user?.id ?? '', device, apply }
}

describe('a worker killed mid-send', () => {
  it('leaves the job to the next worker once its lease ends, which sends it once more', async () => {
    const { mentorId, device, apply } = await mentorAndApplicant()
    // The push service takes the first request and never answers: the send is in flight.
    device.answer('hang')
    const first = startWorker({ leaseMs: 1_000 })
    await apply()
    const [inFlight] = await push.waitFor(1, device.name)
    await first.kill()
    const [claimed] = await jobsOf(mentorId)
    expect(claimed).toMatchObject({ state: 'pending', attempts: 1 })

    startWorker({ leaseMs: 1_000 })
    const [, resent] = await push.waitFor(2, device.name)
    await until(async () => (await jobsOf(mentorId))[0]?.state === 'done')
    // Nothing more arrives: the job was sent exactly once after the restart.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(device.received()).toHaveLength(2)
    expect((await jobsOf(mentorId))[0]).toMatchObject({ state: 'done', attempts: 2 })
    if (!inFlight || !resent) throw new Error('missing pushes')
    // The same notification: the device shows it once (same tag), the push service replaces it (Topic).
    expect(device.decrypt(resent)).toEqual(device.decrypt(inFlight))
    expect(resent.headers.topic).toBe(inFlight.headers.topic)
  })

  it('never sends a job that was done before the restart', async () => {
    const { mentorId, device, apply } = await mentorAndApplicant()
    const worker = startWorker()
    await apply()
    await push.waitFor(1, device.name)
    await until(async () => (await jobsOf(mentorId))[0]?.state === 'done')
    await worker.stop()
    startWorker()
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(device.received()).toHaveLength(1)
  })
})

describe('retries', () => {
  it('retries a failing push service with backoff until it accepts', async () => {
    const { mentorId, device, apply } = await mentorAndApplicant()
    device.answer(500, 503)
    startWorker({ backoffBaseMs: 100 })
    await apply()
    const arrivals = await push.waitFor(3, device.name)
    await until(async () => (await jobsOf(mentorId))[0]?.state === 'done')
    expect((await jobsOf(mentorId))[0]).toMatchObject({
      state: 'done',
      attempts: 3,
      lastError: null,
    })
    // Backoff: the second retry waited longer than nothing.
    const [a, b, c] = arrivals.map((r) => r.at)
    expect((b ?? 0) - (a ?? 0)).toBeGreaterThanOrEqual(45)
    expect((c ?? 0) - (b ?? 0)).toBeGreaterThanOrEqual(95)
  })

  it('keeps a job as failed after the last attempt, with the reason', async () => {
    const { mentorId, device, apply } = await mentorAndApplicant()
    device.answer(503, 503, 503, 503)
    startWorker({ backoffBaseMs: 20, maxAttempts: 3 })
    await apply()
    await until(async () => (await jobsOf(mentorId))[0]?.state === 'failed')
    const [job] = await jobsOf(mentorId)
    expect(job).toMatchObject({ state: 'failed', attempts: 3 })
    expect(job?.lastError).toMatch(/Gave up after 3 attempts\. The push service answered 503/)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(device.received()).toHaveLength(3)
  })

  it('does not retry a refusal that retrying cannot change (400)', async () => {
    const { mentorId, device, apply } = await mentorAndApplicant()
    device.answer(400)
    startWorker({ backoffBaseMs: 20 })
    await apply()
    await until(async () => (await jobsOf(mentorId))[0]?.state === 'failed')
    expect((await jobsOf(mentorId))[0]).toMatchObject({ attempts: 1 })
    expect(device.received()).toHaveLength(1)
  })

  it('backs off exponentially up to the cap, with jitter in the upper half', () => {
    const options = { backoffBaseMs: 1_000, backoffMaxMs: 60_000 }
    expect(backoffMs(1, { ...options, random: () => 1 })).toBe(1_000)
    expect(backoffMs(1, { ...options, random: () => 0 })).toBe(500)
    expect(backoffMs(4, { ...options, random: () => 1 })).toBe(8_000)
    expect(backoffMs(20, { ...options, random: () => 1 })).toBe(60_000)
    expect(backoffMs(20, { ...options, random: () => 0 })).toBe(30_000)
  })
})

describe('several workers on one queue', () => {
  it('send every job exactly once', async () => {
    const other = server.databaseUrl
      ? await startTestServer({}, { sharing: server })
      : // Embedded PGlite serves one process: its workers share one pool.
        server
    try {
      const user = await server.signIn(unique('w-many'))
      const devices: FakeDevice[] = []
      for (let i = 0; i < 3; i++) {
        const device = push.device(unique('w-many-dev'))
        expect((await user.post('/api/push/subscriptions', device.subscription)).status).toBe(201)
        devices.push(device)
      }
      const subscriptions = await server.sql<{ id: string }[]>`
        SELECT id FROM push_subscriptions WHERE user_id = ${user.user?.id ?? ''}`
      const deliveries: Delivery[] = Array.from({ length: 40 }, (_, i) => ({
        userId: user.user?.id ?? '',
        payload: {
          notificationId: crypto.randomUUID(),
          kind: 'topic_approved',
          title: `Note ${i}`,
          message: `Message ${i}`,
          link: '/dashboard',
        },
        subscriptionIds: subscriptions.map((s) => s.id),
        email: false,
      }))
      for (let i = 0; i < 4; i++) {
        startWorker({ batchSize: 5 }, i % 2 === 0 ? server : other)
      }
      await server.sql.begin((tx) => enqueueDeliveries(tx, deliveries))

      await until(async () => {
        const [row] = await server.sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM delivery_jobs
          WHERE user_id = ${user.user?.id ?? ''} AND state = 'done'`
        return row?.n === 120
      }, 15_000)
      await new Promise((resolve) => setTimeout(resolve, 300))
      const mine = push.received().filter((r) => devices.some((d) => d.name === r.device))
      expect(mine).toHaveLength(120)
      const seen = new Set(mine.map((r) => `${r.device} ${r.headers.topic}`))
      expect(seen.size).toBe(120)
      const attempts = await server.sql<{ attempts: number }[]>`
        SELECT DISTINCT attempts FROM delivery_jobs WHERE user_id = ${user.user?.id ?? ''}`
      expect(attempts.map((a) => a.attempts)).toEqual([1])
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()))
      if (other !== server) await other.stop()
    }
  })
})

describe('the VAPID key pair', () => {
  it('is one pair when several instances generate it at once', async () => {
    const fresh = await startTestServer()
    const other = fresh.databaseUrl ? await startTestServer({}, { sharing: fresh }) : fresh
    try {
      const pairs = await Promise.all([
        storedVapidKeys(fresh.sql),
        storedVapidKeys(other.sql),
        storedVapidKeys(fresh.sql),
        storedVapidKeys(other.sql),
      ])
      expect(new Set(pairs.map((p) => JSON.stringify(p))).size).toBe(1)
      const rows = await fresh.sql`SELECT 1 FROM server_settings WHERE name = 'vapid_keys'`
      expect(rows).toHaveLength(1)
    } finally {
      if (other !== fresh) await other.stop()
      await fresh.stop()
    }
  })

  it('comes from the environment when VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set', async () => {
    const keys = {
      VAPID_PUBLIC_KEY:
        'BHy_PIokMIbSYi5XhL5tbVqRMYidCi4heb8p_wPJAZwQVvKP7TVbZP8U3RTswlFvC7AqF_U3R3yNs8lqrt7FrLU',
      VAPID_PRIVATE_KEY: 'sDrBMpXCxh5sb8EBVQ0pWbLsZJbV3qk5sYWTLQUtzos',
    }
    const configured = await startTestServer(keys)
    try {
      const me = await configured.signIn('env-keys')
      expect((await me.get('/api/push/vapid-public-key')).body).toEqual({
        publicKey: keys.VAPID_PUBLIC_KEY,
      })
    } finally {
      await configured.stop()
    }
  })
})

describe('sweepDeliveryJobs', () => {
  it('deletes sent jobs after 7 days and failed ones after 30, never pending ones', async () => {
    const user = await server.signIn(unique('w-sweep'))
    const userId = user.user?.id ?? ''
    const payload = {
      notificationId: crypto.randomUUID(),
      kind: 'topic_approved' as const,
      title: 'Old',
      message: 'Old',
      link: null,
    }
    await server.sql.begin((tx) =>
      enqueueDeliveries(
        tx,
        Array.from({ length: 5 }, () => ({ userId, payload, subscriptionIds: [], email: true })),
      ),
    )
    const ids = (await jobsOf(userId)).map((j) => j.id)
    const age = (id: string | undefined, state: string, days: number) => server.sql`
      UPDATE delivery_jobs SET state = ${state},
        finished_at = now() - make_interval(days => ${days}) WHERE id = ${id ?? '0'}`
    await age(ids[0], 'done', 8)
    await age(ids[1], 'done', 6)
    await age(ids[2], 'failed', 31)
    await age(ids[3], 'failed', 29)
    await server.sql`UPDATE delivery_jobs SET run_at = now() + interval '1 day' WHERE id = ${ids[4] ?? '0'}`

    await server.sql`
      INSERT INTO delivery_budget (user_id, local_date, channel, notification_id) VALUES
        (${userId}, current_date - 10, 'push', gen_random_uuid()),
        (${userId}, current_date, 'push', gen_random_uuid())`
    const swept = await sweepDeliveryJobs(server.sql)

    expect(swept.done).toBeGreaterThanOrEqual(1)
    expect(swept.failed).toBeGreaterThanOrEqual(1)
    // The daily budget's rows of days long past go; today's stay.
    expect(swept.budget).toBeGreaterThanOrEqual(1)
    const budget =
      await server.sql`SELECT local_date FROM delivery_budget WHERE user_id = ${userId}`
    expect(budget).toHaveLength(1)
    expect((await jobsOf(userId)).map((j) => j.id)).toEqual([ids[1], ids[3], ids[4]])
  })
})
