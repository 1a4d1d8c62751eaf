import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_REMINDER_SETTINGS } from '../../shared/programme-settings.ts'
import { expectConsole } from '../../test-support/console-guard.ts'
import type { Sql } from '../db/connect.ts'
import {
  approvedTopic,
  expectProblem,
  notificationsOf,
  signInAdmin,
  type Topic,
  unique,
} from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { readFollowUp } from './follow-up.ts'
import { runReminders, startReminders } from './run.ts'

// The runner is called with a clock of the test's choosing: what the routes do
// happens now, and the runner is asked what is due days or months later.

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'reminders-admin')
})
afterAll(async () => {
  await server?.stop()
})

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const later = (from: Date, ms: number) => new Date(from.getTime() + ms)
const run = (now: Date) => runReminders(server.sql, { now })

type Pending = { mentor: Client; mentee: Client; topic: Topic; applicationId: string; at: Date }

/** A mentee's pending application to a new topic; `at` is when it was made. */
async function pendingApplication(maxMentees = 2): Promise<Pending> {
  const mentor = await server.signIn(unique('mentor'))
  const mentee = await server.signIn(unique('mentee'))
  const topic = await approvedTopic(admin, mentor, { maxMentees })
  const res = await mentee.post(`/api/topics/${topic.id}/apply`)
  expect(res.status, res.text).toBe(201)
  return { mentor, mentee, topic, applicationId: res.body.id, at: await timeOf(res.body.id) }
}

/**
 * A stored time as a Date, rounded up to the millisecond: the database keeps
 * microseconds, so the Date of the same instant would be up to 1 ms early.
 */
const upToMs = (db: TestServer['sql'], column: string) =>
  db`(ceil(extract(epoch FROM ${db(column)}) * 1000) * interval '1 millisecond'
    + 'epoch'::timestamptz)`

async function timeOf(applicationId: string): Promise<Date> {
  const [row] = await server.sql<{ at: Date }[]>`
    SELECT ${upToMs(server.sql, 'created_at')} AS at FROM applications WHERE id = ${applicationId}`
  return row?.at ?? new Date(Number.NaN)
}

/** The topic's lifecycle times as stored. */
async function topicTimes(topicId: string) {
  const [row] = await server.sql<
    { startedAt: Date; concludedAt: Date; lastActivityAt: Date; conclusionDue: Date }[]
  >`
    SELECT ${upToMs(server.sql, 'started_at')} AS "startedAt",
      ${upToMs(server.sql, 'concluded_at')} AS "concludedAt",
      ${upToMs(server.sql, 'last_activity_at')} AS "lastActivityAt",
      ${upToMs(server.sql, 'started_at')} + interval '6 months' AS "conclusionDue"
    FROM topics WHERE id = ${topicId}`
  if (!row) throw new Error('no such topic')
  return row
}

async function accept(p: Pending): Promise<Date> {
  const res = await p.mentor.patch(`/api/applications/${p.applicationId}`, { status: 'accepted' })
  expect(res.status, res.text).toBe(200)
  const [row] = await server.sql<{ at: Date }[]>`
    SELECT ${upToMs(server.sql, 'decided_at')} AS at FROM applications WHERE id = ${p.applicationId}`
  return row?.at ?? new Date(Number.NaN)
}

/** A started topic with one accepted mentee. */
async function startedTopic(): Promise<Pending & { startedAt: Date }> {
  const p = await pendingApplication()
  await accept(p)
  const res = await p.mentor.post(`/api/topics/${p.topic.id}/start`)
  expect(res.status, res.text).toBe(200)
  return { ...p, startedAt: (await topicTimes(p.topic.id)).startedAt }
}

async function conclude(p: Pending): Promise<Date> {
  const res = await p.mentor.post(`/api/topics/${p.topic.id}/conclude`, {
    mentorFeedback: 'We covered everything we planned.',
  })
  expect(res.status, res.text).toBe(200)
  return (await topicTimes(p.topic.id)).concludedAt
}

async function setReminders(changes: Partial<typeof DEFAULT_REMINDER_SETTINGS>): Promise<void> {
  const res = await admin.patch('/api/admin/settings', {
    reminders: { ...DEFAULT_REMINDER_SETTINGS, ...changes },
  })
  expect(res.status, res.text).toBe(200)
}

describe('reminder to answer an application, and the mentee told it is still open', () => {
  it('reminds the mentor at 3 days and not before, once, with the application at hand', async () => {
    const p = await pendingApplication()

    await run(later(p.at, 3 * DAY - MINUTE))
    expect(await notificationsOf(p.mentor, 'reminder_answer')).toEqual([])

    await run(later(p.at, 3 * DAY))
    await run(later(p.at, 3 * DAY + MINUTE))
    const reminders = await notificationsOf(p.mentor, 'reminder_answer')
    expect(reminders).toEqual([
      expect.objectContaining({
        title: 'Waiting for your answer',
        message: `${p.mentee.user?.username} applied to "${p.topic.subject}" 3 days ago and is waiting for your answer.`,
        link: `/dashboard?application=${p.applicationId}`,
        topicId: p.topic.id,
        read: false,
        snoozedUntil: null,
      }),
    ])
    expect(await notificationsOf(p.mentee, 'reminder_answer')).toEqual([])
  })

  it('tells the mentee at 7 days, once, and lists it for administrators', async () => {
    const p = await pendingApplication()

    await run(later(p.at, 7 * DAY - MINUTE))
    expect(await notificationsOf(p.mentee, 'application_waiting')).toEqual([])
    const before = await readFollowUp(server.sql, later(p.at, 7 * DAY - MINUTE))
    expect(before.waitingForAnswer.map((w) => w.applicationId)).not.toContain(p.applicationId)

    await run(later(p.at, 7 * DAY))
    await run(later(p.at, 8 * DAY))
    expect(await notificationsOf(p.mentee, 'application_waiting')).toEqual([
      expect.objectContaining({
        title: 'Your application is still open',
        message: expect.stringContaining(`"${p.topic.subject}" has waited 7 days`),
        link: `/topics/${p.topic.id}`,
        topicId: p.topic.id,
      }),
    ])
    expect(await notificationsOf(p.mentor, 'application_waiting')).toEqual([])
    const after = await readFollowUp(server.sql, later(p.at, 7 * DAY))
    expect(after.waitingForAnswer).toContainEqual({
      applicationId: p.applicationId,
      topicId: p.topic.id,
      subject: p.topic.subject,
      mentee: expect.objectContaining({ id: p.mentee.user?.id }),
      mentor: expect.objectContaining({ id: p.mentor.user?.id }),
      appliedAt: expect.any(Date),
      daysWaiting: 7,
      mentorReminded: true,
    })
  })

  it('reminds nobody once the mentor has answered', async () => {
    const accepted = await pendingApplication()
    const rejected = await pendingApplication()
    await accept(accepted)
    const res = await rejected.mentor.patch(`/api/applications/${rejected.applicationId}`, {
      status: 'rejected',
      rejectionReason: 'Full this quarter',
    })
    expect(res.status).toBe(200)

    await run(later(rejected.at, 8 * DAY))
    for (const p of [accepted, rejected]) {
      expect(await notificationsOf(p.mentor, 'reminder_answer')).toEqual([])
      expect(await notificationsOf(p.mentee, 'application_waiting')).toEqual([])
    }
  })

  it('sends nothing for a stage turned off, and a changed threshold applies on the next run', async () => {
    const p = await pendingApplication()
    try {
      await setReminders({ mentorAnswerDays: null, menteeStillOpenDays: 2 })
      await run(later(p.at, 3 * DAY))
      expect(await notificationsOf(p.mentor, 'reminder_answer')).toEqual([])
      expect(await notificationsOf(p.mentee, 'application_waiting')).toHaveLength(1)
      const list = await readFollowUp(server.sql, later(p.at, 3 * DAY))
      expect(list.waitingForAnswer.map((w) => w.applicationId)).toContain(p.applicationId)

      await setReminders({ menteeStillOpenDays: null })
      expect((await readFollowUp(server.sql, later(p.at, 30 * DAY))).waitingForAnswer).toEqual([])
    } finally {
      await setReminders({})
    }
    await run(later(p.at, 3 * DAY))
    expect(await notificationsOf(p.mentor, 'reminder_answer')).toHaveLength(1)
  })

  it('sends each reminder once when two runners run at the same time', async () => {
    const p = await pendingApplication()
    const at = later(p.at, 7 * DAY)
    const [a, b] = await Promise.all([run(at), run(at)])
    expect((a?.reminder_answer ?? 0) + (b?.reminder_answer ?? 0)).toBeGreaterThanOrEqual(1)
    expect(await notificationsOf(p.mentor, 'reminder_answer')).toHaveLength(1)
    expect(await notificationsOf(p.mentee, 'application_waiting')).toHaveLength(1)
    const [row] = await server.sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM reminders_sent WHERE subject_id = ${p.applicationId}`
    expect(row?.count).toBe(2)
  })
})

/** A pending application made `days` (and a minute) ago: a snooze counts from the real clock, so the wait does too. */
async function pendingFor(days: number): Promise<Pending> {
  const p = await pendingApplication()
  await server.sql`UPDATE applications
    SET created_at = now() - make_interval(days => ${days}) - interval '1 minute'
    WHERE id = ${p.applicationId}`
  return p
}

describe('"Remind me tomorrow"', () => {
  it('brings the reminder back once after 24 hours, and it cannot be put off again', async () => {
    const p = await pendingFor(3)
    await run(new Date())
    const [first] = await notificationsOf(p.mentor, 'reminder_answer')

    const snoozed = await p.mentor.post(`/api/notifications/${first.id}/snooze`)
    expect(snoozed.status, snoozed.text).toBe(200)
    expect(snoozed.body).toMatchObject({ id: first.id, read: true })
    const until = new Date(snoozed.body.snoozedUntil)
    expect(Math.abs(until.getTime() - Date.now() - DAY)).toBeLessThan(MINUTE)
    expectProblem(await p.mentor.post(`/api/notifications/${first.id}/snooze`), 409, /once/)

    await run(later(until, -MINUTE))
    expect(await notificationsOf(p.mentor, 'reminder_answer')).toHaveLength(1)
    await run(later(until, 1)) // the stored time has microseconds: 1 ms on is "at it"
    await run(later(until, DAY))
    const both = await notificationsOf(p.mentor, 'reminder_answer')
    expect(both).toHaveLength(2)
    const again = both.find((n: { id: string }) => n.id !== first.id)
    expect(again).toMatchObject({ link: first.link, snoozedUntil: null, read: false })

    expectProblem(
      await p.mentor.post(`/api/notifications/${again.id}/snooze`),
      409,
      /already put off once/,
    )
  })

  it('does not bring it back when the person acted meanwhile', async () => {
    const p = await pendingFor(3)
    await run(new Date())
    const [first] = await notificationsOf(p.mentor, 'reminder_answer')
    expect((await p.mentor.post(`/api/notifications/${first.id}/snooze`)).status).toBe(200)
    await accept(p)
    await run(later(new Date(), 2 * DAY))
    expect(await notificationsOf(p.mentor, 'reminder_answer')).toHaveLength(1)
  })

  it("refuses other kinds (409), other people's and missing notifications (404)", async () => {
    const p = await pendingApplication()
    const [application] = await notificationsOf(p.mentor, 'new_application')
    expectProblem(
      await p.mentor.post(`/api/notifications/${application.id}/snooze`),
      409,
      /Only a reminder/,
    )
    await run(later(p.at, 3 * DAY))
    const [reminder] = await notificationsOf(p.mentor, 'reminder_answer')
    expectProblem(await p.mentee.post(`/api/notifications/${reminder.id}/snooze`), 404)
    expectProblem(
      await p.mentor.post('/api/notifications/00000000-0000-4000-8000-000000000000/snooze'),
      404,
    )
    expectProblem(await server.anonymous().post(`/api/notifications/${reminder.id}/snooze`), 401)
  })
})

describe('reminder to start', () => {
  it('reminds the mentor 14 days after the first acceptance, once, unless started', async () => {
    const p = await pendingApplication()
    const acceptedAt = await accept(p)
    const started = await pendingApplication()
    await accept(started)
    expect((await started.mentor.post(`/api/topics/${started.topic.id}/start`)).status).toBe(200)

    await run(later(acceptedAt, 14 * DAY - MINUTE))
    expect(await notificationsOf(p.mentor, 'reminder_start')).toEqual([])
    await run(later(acceptedAt, 14 * DAY))
    await run(later(acceptedAt, 15 * DAY))
    expect(await notificationsOf(p.mentor, 'reminder_start')).toEqual([
      expect.objectContaining({
        title: 'Ready to start?',
        link: `/topics/${p.topic.id}`,
        topicId: p.topic.id,
        message: expect.stringContaining(`"${p.topic.subject}" 14 days ago`),
      }),
    ])
    expect(await notificationsOf(p.mentee, 'reminder_start')).toEqual([])
    expect(await notificationsOf(started.mentor, 'reminder_start')).toEqual([])
  })
})

describe('reminder to conclude', () => {
  it('reminds the mentor at the programme length, once, unless concluded or turned off', async () => {
    const open = await startedTopic()
    const done = await startedTopic()
    await conclude(done)
    const { conclusionDue } = await topicTimes(open.topic.id)

    await run(later(conclusionDue, -MINUTE))
    expect(await notificationsOf(open.mentor, 'reminder_conclude')).toEqual([])
    try {
      await setReminders({ concludeAtProgrammeEnd: false })
      await run(conclusionDue)
      expect(await notificationsOf(open.mentor, 'reminder_conclude')).toEqual([])
    } finally {
      await setReminders({})
    }
    await run(conclusionDue)
    await run(later(conclusionDue, DAY))
    expect(await notificationsOf(open.mentor, 'reminder_conclude')).toEqual([
      expect.objectContaining({
        title: 'Time to wrap up?',
        message: `"${open.topic.subject}" started 6 months ago. Conclude it when you are done.`,
        link: `/topics/${open.topic.id}`,
      }),
    ])
    expect(await notificationsOf(open.mentee, 'reminder_conclude')).toEqual([])
    expect(await notificationsOf(done.mentor, 'reminder_conclude')).toEqual([])
  })
})

describe('reminder to leave feedback', () => {
  it('asks each participant without feedback once, 3 days after the conclusion', async () => {
    const p = await startedTopic()
    const concludedAt = await conclude(p)
    const given = await p.mentee.post(`/api/topics/${p.topic.id}/feedback`, {
      feedback: 'Very helpful.',
      rating: 5,
    })
    expect(given.status, given.text).toBe(201)

    await run(later(concludedAt, 3 * DAY - MINUTE))
    expect(await notificationsOf(p.mentor, 'reminder_feedback')).toEqual([])
    await run(later(concludedAt, 3 * DAY))
    await run(later(concludedAt, 4 * DAY))
    expect(await notificationsOf(p.mentor, 'reminder_feedback')).toEqual([
      expect.objectContaining({
        title: 'How did it go?',
        message: `"${p.topic.subject}" has concluded. Leave your feedback: it takes a minute.`,
        link: `/topics/${p.topic.id}#feedback`,
        topicId: p.topic.id,
      }),
    ])
    expect(await notificationsOf(p.mentee, 'reminder_feedback')).toEqual([])
  })
})

describe('check-in', () => {
  it('asks mentor and mentee after 21 quiet days, once; escalates at 45; going well resets it', async () => {
    const p = await startedTopic()
    const quietSince = (await topicTimes(p.topic.id)).lastActivityAt
    expect(quietSince).toEqual(p.startedAt)

    await run(later(quietSince, 21 * DAY - MINUTE))
    expect(await notificationsOf(p.mentor, 'check_in')).toEqual([])
    await run(later(quietSince, 21 * DAY))
    await run(later(quietSince, 22 * DAY))
    for (const person of [p.mentor, p.mentee]) {
      expect(await notificationsOf(person, 'check_in')).toEqual([
        expect.objectContaining({
          title: 'How is it going?',
          message: `"${p.topic.subject}" has been quiet here for 21 days. How is it going?`,
          link: `/topics/${p.topic.id}`,
          topicId: p.topic.id,
          response: null,
        }),
      ])
    }
    const escalated = await readFollowUp(server.sql, later(quietSince, 45 * DAY))
    expect(escalated.needsCheckIn).toContainEqual({
      topicId: p.topic.id,
      subject: p.topic.subject,
      mentor: expect.objectContaining({ id: p.mentor.user?.id }),
      mentees: [expect.objectContaining({ id: p.mentee.user?.id })],
      startedAt: expect.any(Date),
      lastActivityAt: expect.any(Date),
      daysQuiet: 45,
      needsHelp: false,
    })
    const notYet = await readFollowUp(server.sql, later(quietSince, 45 * DAY - MINUTE))
    expect(notYet.needsCheckIn.map((t) => t.topicId)).not.toContain(p.topic.id)

    const [checkIn] = await notificationsOf(p.mentee, 'check_in')
    const answered = await p.mentee.post(`/api/notifications/${checkIn.id}/response`, {
      response: 'going_well',
    })
    expect(answered.status, answered.text).toBe(200)
    expect(answered.body).toMatchObject({ id: checkIn.id, response: 'going_well', read: true })
    const { lastActivityAt } = await topicTimes(p.topic.id)
    expect(lastActivityAt.getTime()).toBeGreaterThan(quietSince.getTime())
    const after = await readFollowUp(server.sql, later(quietSince, 45 * DAY))
    expect(after.needsCheckIn.map((t) => t.topicId)).not.toContain(p.topic.id)
    await run(later(lastActivityAt, 30 * DAY))
    expect(await notificationsOf(p.mentee, 'check_in')).toHaveLength(1)
  })

  it('puts the topic on "Needs a check-in" at once when someone asks for help', async () => {
    const p = await startedTopic()
    await run(later(p.startedAt, 21 * DAY))
    const [checkIn] = await notificationsOf(p.mentor, 'check_in')
    expect((await readFollowUp(server.sql)).needsCheckIn.map((t) => t.topicId)).not.toContain(
      p.topic.id,
    )

    const res = await p.mentor.post(`/api/notifications/${checkIn.id}/response`, {
      response: 'need_help',
    })
    expect(res.status, res.text).toBe(200)
    const list = await admin.get('/api/admin/follow-up')
    expect(list.status).toBe(200)
    expect(list.body.needsCheckIn).toContainEqual(
      expect.objectContaining({ topicId: p.topic.id, needsHelp: true, daysQuiet: 0 }),
    )
    expectProblem(
      await p.mentor.post(`/api/notifications/${checkIn.id}/response`, { response: 'going_well' }),
      409,
      /already answered/,
    )
  })

  it('refuses answers to other kinds (409), by others (404) and invalid answers (400)', async () => {
    const p = await startedTopic()
    await run(later(p.startedAt, 21 * DAY))
    const [checkIn] = await notificationsOf(p.mentor, 'check_in')
    const [started] = await notificationsOf(p.mentee, 'topic_started')
    expectProblem(
      await p.mentee.post(`/api/notifications/${started.id}/response`, { response: 'going_well' }),
      409,
      /Only a check-in/,
    )
    expectProblem(
      await p.mentee.post(`/api/notifications/${checkIn.id}/response`, { response: 'going_well' }),
      404,
    )
    const invalid = await p.mentor.post(`/api/notifications/${checkIn.id}/response`, {
      response: 'meh',
    })
    expectProblem(invalid, 400)
    expectProblem(await p.mentor.post(`/api/notifications/${checkIn.id}/snooze`), 409)
  })
})

describe('GET /api/admin/follow-up', () => {
  it('answers administrators the lists, longest waiting first; 403 for others, 401 signed out', async () => {
    const older = await pendingApplication()
    const newer = await pendingApplication()
    await server.sql`UPDATE applications SET created_at = now() - interval '9 days'
      WHERE id = ${older.applicationId}`
    await server.sql`UPDATE applications SET created_at = now() - interval '8 days'
      WHERE id = ${newer.applicationId}`

    const res = await admin.get('/api/admin/follow-up')
    expect(res.status, res.text).toBe(200)
    const ids = res.body.waitingForAnswer.map((w: { applicationId: string }) => w.applicationId)
    expect(ids.indexOf(older.applicationId)).toBeGreaterThanOrEqual(0)
    expect(ids.indexOf(older.applicationId)).toBeLessThan(ids.indexOf(newer.applicationId))
    expect(res.body.waitingForAnswer[ids.indexOf(older.applicationId)]).toMatchObject({
      daysWaiting: 9,
      appliedAt: expect.any(String),
    })

    expectProblem(await older.mentor.get('/api/admin/follow-up'), 403, /Only administrators/)
    expectProblem(await server.anonymous().get('/api/admin/follow-up'), 401)
  })
})

describe('through sync push (queued offline)', () => {
  it('replays a snooze and a check-in answer like the REST calls, once per mutation id', async () => {
    const p = await pendingFor(3)
    const s = await startedTopic()
    await run(later(s.startedAt, 21 * DAY))
    await run(new Date())
    const [reminder] = await notificationsOf(p.mentor, 'reminder_answer')
    const [checkIn] = await notificationsOf(s.mentor, 'check_in')
    const snooze = {
      id: randomUUID(),
      method: 'POST',
      path: `/api/notifications/${reminder.id}/snooze`,
    }
    const answer = {
      id: randomUUID(),
      method: 'POST',
      path: `/api/notifications/${checkIn.id}/response`,
      body: { response: 'going_well' },
    }

    const first = await p.mentor.post('/api/sync/push', { clientId: 'phone', mutations: [snooze] })
    const again = await p.mentor.post('/api/sync/push', { clientId: 'phone', mutations: [snooze] })
    const answered = await s.mentor.post('/api/sync/push', {
      clientId: 'phone',
      mutations: [answer],
    })

    expect(first.status, first.text).toBe(200)
    expect(first.body.results[0]).toMatchObject({ status: 200, body: { id: reminder.id } })
    expect(first.body.results[0].body.snoozedUntil).toEqual(expect.any(String))
    expect(again.body.results[0]).toEqual({ ...first.body.results[0], replayed: true })
    expect(answered.body.results[0]).toMatchObject({
      status: 200,
      body: { id: checkIn.id, response: 'going_well' },
    })
  })
})

describe('the reminder loop', () => {
  it('sends what is due on its own schedule and stops after its run', async () => {
    const p = await pendingFor(3)
    const loop = startReminders(server.sql, { intervalMs: 50 })
    try {
      await expect
        .poll(async () => (await notificationsOf(p.mentor, 'reminder_answer')).length, {
          timeout: 10_000,
        })
        .toBe(1)
    } finally {
      await loop.stop()
    }
  })

  it('logs a failed run and keeps going', async () => {
    expectConsole('warn', /Reminders failed: the database is down/)
    let calls = 0
    const broken = (() => {
      calls += 1
      return Promise.reject(new Error('the database is down'))
    }) as unknown as Sql
    const loop = startReminders(broken, { intervalMs: 10 })
    await expect.poll(() => calls, { timeout: 5_000 }).toBeGreaterThan(2)
    await loop.stop()
  })
})
