import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, notificationsOf, signInAdmin } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { readFollowUp } from './follow-up.ts'
import { DAY, later, MINUTE, reminderFixtures } from './testing.ts'

// Acting on reminders: "Remind me tomorrow", answering a check-in (also
// through sync push), and the administrators' follow-up lists.

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'actions-admin')
})
afterAll(async () => {
  await server?.stop()
})

const { run, pendingFor, pendingApplication, accept, startedTopic } = reminderFixtures(
  () => server,
  () => admin,
)

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

describe('check-in answers', () => {
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
