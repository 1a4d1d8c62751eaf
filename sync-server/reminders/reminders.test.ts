import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { notificationsOf, signInAdmin } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { readFollowUp } from './follow-up.ts'
import { DAY, later, MINUTE, reminderFixtures } from './testing.ts'

// Each reminder stage at its threshold and not a minute before, once, to the
// right people, not after they acted, not when the stage is off.

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'reminders-admin')
})
afterAll(async () => {
  await server?.stop()
})

const { run, pendingApplication, topicTimes, accept, startedTopic, conclude, setReminders } =
  reminderFixtures(
    () => server,
    () => admin,
  )

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
})
