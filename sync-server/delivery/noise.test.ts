import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PREFERENCES, type Preferences } from '../../shared/preferences.ts'
import { type MailSink, startMailSink } from '../mail/testing.ts'
import { type FakeDevice, type FakePushService, startFakePushService } from '../push/testing.ts'
import { approvedTopic, createTopic, notificationsOf, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { runDigests } from './digest.ts'
import type { DeliveryOptions } from './options.ts'
import { type DeliveryWorker, startDeliveryWorker } from './worker.ts'

// Less noise (issue 18): quiet hours, the e-mail delay, the daily budget, the
// daily digest and one-click unsubscribe, through the real server, worker,
// SMTP sink and push service, with the worker's clock under the test's control.

const PUBLIC_URL = 'https://pairwise.example.com'
let server: TestServer
let sink: MailSink
let push: FakePushService
let admin: Client
let worker: DeliveryWorker | undefined
/**
 * The scenarios' dates, moved ahead by whole years of 52 weeks (the same weekday, the same
 * season for Berlin's clock) until they lie in the future. The queue claims a job by the
 * database's clock, so a job held until a moment already past would be claimed and held again
 * at once: with fixed dates, the quiet-hours test broke on the morning it names.
 */
const YEAR_OF_WEEKS_MS = 364 * 24 * 3600_000
const SHIFT_MS =
  Math.max(
    0,
    Math.ceil(
      (Date.now() + 30 * 24 * 3600_000 - Date.parse('2026-11-26T00:00:00Z')) / YEAR_OF_WEEKS_MS,
    ),
  ) * YEAR_OF_WEEKS_MS
/** A moment of the scenarios, written as it was in 2026 (the weekdays in the comments are those). */
const at = (iso: string): Date => new Date(Date.parse(iso) + SHIFT_MS)

/** The worker's clock: quiet hours, local days and digests go by it. */
let clock = at('2026-11-26T10:00:00Z') // a Thursday
const quiet = { info: () => {}, warn: () => {} }

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL })
  sink = await startMailSink()
  push = await startFakePushService()
  admin = await signInAdmin(server, 'noise-admin')
})
afterEach(async () => {
  await worker?.stop()
  worker = undefined
})
afterAll(async () => {
  await push?.close()
  await sink?.close()
  await server?.stop()
})

function startWorker(options: Partial<DeliveryOptions> = {}) {
  worker = startDeliveryWorker(
    server.sql,
    { ...server.config, SMTP_URL: sink.url },
    {
      log: quiet,
      pollMs: 100,
      emailDelayMs: 0,
      now: () => clock,
      // The tests run the digests themselves, at the moments they choose.
      digestEveryMs: Number.MAX_SAFE_INTEGER,
      ...options,
    },
  )
}

type Person = Client & { id: string; email: string; device: FakeDevice }

/** A signed-in user with an e-mail address and a subscribed device. */
async function person(prefix: string, preferences: Partial<Preferences> = {}): Promise<Person> {
  const client = await server.signIn(unique(prefix))
  const id = client.user?.id ?? ''
  const email = `${client.user?.username}@example.com`
  await server.sql`UPDATE users SET email = ${email} WHERE id = ${id}`
  const device = push.device(unique(`${prefix}-phone`))
  expect((await client.post('/api/push/subscriptions', device.subscription)).status).toBe(201)
  const res = await client.patch('/api/user/notification-preferences', {
    ...DEFAULT_PREFERENCES,
    ...preferences,
  })
  expect(res.status, res.text).toBe(200)
  return Object.assign(client, { id, email, device })
}

type Job = { kind: string; state: string; runAt: Date; lastError: string | null }

async function jobsOf(p: { id: string }): Promise<Job[]> {
  return server.sql<Job[]>`
    SELECT kind, state, run_at AS "runAt", last_error AS "lastError"
    FROM delivery_jobs WHERE user_id = ${p.id} ORDER BY id`
}

async function until(check: () => Promise<boolean>, timeoutMs = 8_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Every job of the person is done, failed, or held for later than now. */
async function settled(p: { id: string }): Promise<Job[]> {
  await until(async () =>
    (await jobsOf(p)).every((j) => j.state !== 'pending' || j.runAt.getTime() > Date.now() + 1000),
  )
  return jobsOf(p)
}

const mailsTo = (address: string) => sink.received().filter((m) => m.to.includes(address))

async function applicants(topicId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const mentee = await server.signIn(unique('noise-mentee'))
    expect((await mentee.post(`/api/topics/${topicId}/apply`)).status).toBe(201)
  }
}

describe('quiet hours', () => {
  it('holds pushes and e-mails from 20:00 until 08:00 in the person’s time zone, then sends them', async () => {
    clock = at('2026-11-26T21:30:00Z') // Thursday 22:30 in Berlin
    const mentor = await person('quiet-mentor', { timeZone: 'Europe/Berlin' })
    startWorker()
    const topic = await approvedTopic(admin, mentor, { maxMentees: 2 })
    const jobs = await settled(mentor)
    expect(jobs.map((j) => j.kind).sort()).toEqual(['email', 'push'])
    for (const job of jobs) {
      expect(job).toMatchObject({ state: 'pending', lastError: 'Held for the end of quiet hours.' })
      // Friday 08:00 in Berlin.
      expect(job.runAt.toISOString()).toBe(at('2026-11-27T07:00:00Z').toISOString())
    }
    expect(mentor.device.received()).toHaveLength(0)
    expect(mailsTo(mentor.email)).toHaveLength(0)

    // The morning comes.
    clock = at('2026-11-27T07:00:00Z')
    await server.sql`UPDATE delivery_jobs SET run_at = now() WHERE user_id = ${mentor.id}`
    await push.waitFor(1, mentor.device.name)
    await sink.waitFor(1)
    const after = await settled(mentor)
    expect(after.every((j) => j.state === 'done')).toBe(true)
    expect(mailsTo(mentor.email).map((m) => m.headers.get('subject'))).toEqual(['Topic approved'])
    expect(topic.id).toBeTruthy()
  })

  it('holds on a weekend until Monday, and holds nothing for a person whose time zone is not known', async () => {
    clock = at('2026-11-28T12:00:00Z') // Saturday noon
    const berliner = await person('weekend-mentor', { timeZone: 'Europe/Berlin' })
    const unknown = await person('nozone-mentor', { timeZone: null })
    startWorker()
    await approvedTopic(admin, berliner)
    await approvedTopic(admin, unknown)
    const held = await settled(berliner)
    expect(held.map((j) => j.runAt.toISOString())).toEqual([
      at('2026-11-30T07:00:00Z').toISOString(),
      at('2026-11-30T07:00:00Z').toISOString(),
    ])
    await push.waitFor(1, unknown.device.name)
    expect((await settled(unknown)).every((j) => j.state === 'done')).toBe(true)
  })
})

describe('the daily noise budget', () => {
  it('pushes at most 3 and e-mails at most 1 a day outside decisions; decisions always go', async () => {
    clock = at('2026-11-26T10:00:00Z')
    const mentor = await person('busy-mentor', { timeZone: 'UTC' })
    const topic = await approvedTopic(admin, mentor, { maxMentees: 2 })
    startWorker()
    await settled(mentor) // the approval: a decision, outside the budget
    const before = { pushes: mentor.device.received().length, mails: mailsTo(mentor.email).length }
    expect(before).toEqual({ pushes: 1, mails: 1 })

    await applicants(topic.id, 5)
    const jobs = await settled(mentor)
    expect(mentor.device.received().length - before.pushes).toBe(3)
    expect(mailsTo(mentor.email).length - before.mails).toBe(1)
    const reasons = jobs.map((j) => j.lastError).filter(Boolean)
    expect(reasons.filter((r) => r === 'Over the daily budget of 3 pushes.')).toHaveLength(2)
    expect(
      reasons.filter((r) => r === 'Moved to the next digest: today’s e-mail went out.'),
    ).toHaveLength(4)

    // A decision still goes at once: another topic of theirs approved.
    await approvedTopic(admin, mentor)
    await settled(mentor)
    expect(mentor.device.received().length - before.pushes).toBe(4)
    expect(mailsTo(mentor.email).length - before.mails).toBe(2)

    // What did not fit comes in the next day's digest, in one e-mail.
    clock = at('2026-11-27T08:00:00Z')
    await runDigests(server.sql, { now: clock })
    await settled(mentor)
    const digest = mailsTo(mentor.email).at(-1)
    expect(digest?.headers.get('subject')).toBe('Pairwise: 4 updates')
    expect(digest?.text.match(/applied to your topic/g)).toHaveLength(4)
  })
})

describe('a busy simulated week', () => {
  it('keeps every day within one e-mail and three pushes, and loses nothing', async () => {
    const mentor = await person('week-mentor', { timeZone: 'UTC' })
    clock = at('2026-11-27T10:00:00Z') // the Friday before: the approvals go out
    startWorker()
    const topics = [
      await approvedTopic(admin, mentor, { maxMentees: 2 }),
      await approvedTopic(admin, mentor, { maxMentees: 2 }),
    ]
    await settled(mentor)
    const perDay: { day: string; pushes: number; mails: number }[] = []
    for (let d = 0; d < 7; d++) {
      const day = new Date(at('2026-11-30T00:00:00Z').getTime() + d * 24 * 3600_000) // Monday on
      const label = day.toISOString().slice(0, 10)
      const pushes = mentor.device.received().length
      const mails = mailsTo(mentor.email).length
      // 08:00: the digest of what waited; 10:00–18:00: eight applications.
      clock = new Date(day.getTime() + 8 * 3600_000)
      await server.sql`UPDATE delivery_jobs SET run_at = now() WHERE user_id = ${mentor.id} AND state = 'pending'`
      await runDigests(server.sql, { now: clock })
      await settled(mentor)
      for (let i = 0; i < 8; i++) {
        clock = new Date(day.getTime() + (10 + i) * 3600_000)
        await applicants(topics[i % 2]?.id ?? '', 1)
      }
      await settled(mentor)
      perDay.push({
        day: label,
        pushes: mentor.device.received().length - pushes,
        mails: mailsTo(mentor.email).length - mails,
      })
    }
    console.log(`A week of 56 applications, per day: ${JSON.stringify(perDay)}`)
    for (const day of perDay) {
      expect(day.pushes, day.day).toBeLessThanOrEqual(3)
      expect(day.mails, day.day).toBeLessThanOrEqual(1)
    }
    // Weekdays: the morning digest, three pushes. Weekends: quiet.
    expect(perDay.slice(0, 5).every((d) => d.pushes === 3 && d.mails === 1)).toBe(true)
    expect(perDay.slice(5).every((d) => d.pushes === 0 && d.mails === 0)).toBe(true)
    // Nothing is lost: Monday's first application had its own e-mail, Tuesday's
    // to Friday's digests carried the 31 after it, Friday's 8 wait for the next
    // digest, and the weekend's 16 e-mails are held for Monday morning.
    const rows = await server.sql<{ state: string | null; n: number }[]>`
      SELECT digest_state AS state, count(*)::int AS n FROM notifications
      WHERE user_id = ${mentor.id} AND kind = 'new_application' GROUP BY digest_state`
    expect(Object.fromEntries(rows.map((r) => [r.state ?? 'own e-mail', r.n]))).toEqual({
      'own e-mail': 1 + 16,
      sent: 31,
      waiting: 8,
    })
    const held = await server.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM delivery_jobs
      WHERE user_id = ${mentor.id} AND kind = 'email' AND state = 'pending'
        AND run_at = ${at('2026-12-07T08:00:00Z')}`
    expect(held[0]?.n).toBe(16)
  }, 120_000)
})

describe('the daily digest', () => {
  it('sends one e-mail a day at the person’s digest hour, listing what is still unread', async () => {
    clock = at('2026-11-26T11:00:00Z') // noon in Berlin: pushes go at once
    const reviewer = await person('digest-admin', { timeZone: 'Europe/Berlin', digestHour: 8 })
    await server.sql`UPDATE users SET is_admin = true WHERE id = ${reviewer.id}`
    startWorker()
    const proposer = await server.signIn(unique('digest-proposer'))
    const subjects = [unique('Digest A'), unique('Digest B'), unique('Digest C')]
    for (const subject of subjects) await createTopic(proposer, { subject })
    // New topics for review go in the digest by default: no e-mail now (pushes go).
    await settled(reviewer)
    expect((await jobsOf(reviewer)).filter((j) => j.kind !== 'push')).toEqual([])
    expect(mailsTo(reviewer.email)).toHaveLength(0)

    // One is read in the app: it is not e-mailed afterwards.
    const [newest] = await notificationsOf(reviewer, 'topic_for_review')
    expect((await reviewer.patch(`/api/notifications/${newest.id}`)).status).toBe(200)

    const mine = async () => (await jobsOf(reviewer)).filter((j) => j.kind === 'digest')
    await runDigests(server.sql, { now: at('2026-11-26T06:59:00Z') }) // 07:59 in Berlin
    expect(await mine()).toHaveLength(0)
    // Twice at once at 08:00, as two instances would: one digest.
    const eight = at('2026-11-26T07:00:00Z')
    await Promise.all([
      runDigests(server.sql, { now: eight }),
      runDigests(server.sql, { now: eight }),
    ])
    expect(await mine()).toHaveLength(1)
    await sink.waitFor(1)
    await settled(reviewer)
    const [mail] = mailsTo(reviewer.email)
    expect(mail?.headers.get('subject')).toBe('Pairwise: 2 updates')
    expect(mail?.text).toContain(subjects[0])
    expect(mail?.text).toContain(subjects[1])
    expect(mail?.text).not.toContain(subjects[2])

    // At most one a day: a new one waits for tomorrow's.
    await createTopic(proposer, { subject: unique('Digest D') })
    await runDigests(server.sql, { now: at('2026-11-26T15:00:00Z') })
    expect(await mine()).toHaveLength(1)
    await runDigests(server.sql, { now: at('2026-11-27T07:00:00Z') })
    expect(await mine()).toHaveLength(2)
    await settled(reviewer)
    expect(mailsTo(reviewer.email).at(-1)?.headers.get('subject')).toBe('New topic for review')

    // Nothing to say: nothing sent.
    await runDigests(server.sql, { now: at('2026-11-30T07:00:00Z') })
    expect(await mine()).toHaveLength(2)
    expect(mailsTo(reviewer.email)).toHaveLength(2)
  })
})

describe('the e-mail delay', () => {
  it('drops an e-mail whose notification was read in the app meanwhile, and sends the others after it', async () => {
    clock = new Date() // real time: the delay counts from when the job was queued
    const mentor = await person('delay-mentor', { timeZone: null })
    const topic = await approvedTopic(admin, mentor, { maxMentees: 2 })
    startWorker({ emailDelayMs: 1_500, now: () => new Date() })
    await applicants(topic.id, 1)
    const [application] = await notificationsOf(mentor, 'new_application')
    expect((await mentor.patch(`/api/notifications/${application.id}`)).status).toBe(200)
    await until(async () => (await jobsOf(mentor)).every((j) => j.state !== 'pending'), 10_000)
    const emails = (await jobsOf(mentor)).filter((j) => j.kind === 'email')
    // The approval went after the delay; the application, read meanwhile, never did.
    expect(emails.map((j) => j.lastError)).toEqual([null, 'Read in the app before it went out.'])
    expect(mailsTo(mentor.email).map((m) => m.headers.get('subject'))).toEqual(['Topic approved'])
  })
})

describe('one-click unsubscribe (RFC 8058)', () => {
  it('puts a signed link in every e-mail that turns that category off, by the page’s button or the mail program’s POST', async () => {
    clock = at('2026-11-26T10:00:00Z')
    const mentor = await person('unsub-mentor', { timeZone: 'UTC' })
    const topic = await approvedTopic(admin, mentor, { maxMentees: 2 })
    startWorker()
    await applicants(topic.id, 1)
    await settled(mentor)
    const mail = mailsTo(mentor.email).find((m) => m.headers.get('subject') === 'New application')
    expect(mail?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    const header = mail?.headers.get('list-unsubscribe') ?? ''
    expect(header).toMatch(/^<https:\/\/pairwise\.example\.com\/api\/email\/unsubscribe\?token=/)
    const link = new URL(header.slice(1, -1))
    expect(mail?.text).toContain(`Stop e-mails like this one: ${link.href}`)
    const local = `${server.url}${link.pathname}${link.search}`

    // Opening the link changes nothing (mail scanners open links).
    const page = await fetch(local)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('New Applications')
    const prefs = async () =>
      (await mentor.get('/api/user/notification-preferences')).body as Preferences
    expect((await prefs()).emailNotifications.newApplications).toBe(true)

    // The mail program's one-click POST, with no cookie and no Origin.
    const done = await fetch(local, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(done.status).toBe(200)
    expect(await done.text()).toContain('You will no longer get e-mails about')
    expect((await prefs()).emailNotifications).toEqual({
      ...DEFAULT_PREFERENCES.emailNotifications,
      newApplications: false,
    })

    // A link altered or cut short does nothing.
    const token = link.searchParams.get('token') ?? ''
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`
    const refused = await fetch(`${server.url}/api/email/unsubscribe?token=${forged}`, {
      method: 'POST',
    })
    expect(refused.status).toBe(404)
    expect(refused.headers.get('content-type')).toContain('text/html')
    const cut = await fetch(`${server.url}/api/email/unsubscribe?token=${token.slice(0, 20)}`)
    expect(cut.status).toBe(400)
  })
})
