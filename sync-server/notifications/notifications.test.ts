import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PREFERENCES } from '../../shared/preferences.ts'
import { approvedTopic, expectProblem, notificationsOf, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'notes-admin')
})
afterAll(async () => {
  await server?.stop()
})

/** A mentor with an approved topic that `count` mentees applied to, one after another. */
async function mentorWithApplicants(count: number) {
  const mentor = await server.signIn(unique('n-mentor'))
  const { id: topicId } = await approvedTopic(admin, mentor, {
    subject: unique('Noted topic'),
    seniorityRequired: ['mid'],
  })
  const mentees: Client[] = []
  for (let i = 0; i < count; i++) {
    const mentee = await server.signIn(unique('n-mentee'))
    expect((await mentee.post(`/api/topics/${topicId}/apply`)).status).toBe(201)
    mentees.push(mentee)
  }
  return { mentor, mentees, topicId }
}

describe('GET /api/notifications', () => {
  it('lists the caller’s notifications newest first, in the spec shape', async () => {
    const { mentor, mentees } = await mentorWithApplicants(3)

    const notes = (await notificationsOf(mentor)).filter((n) => n.kind === 'new_application')

    expect(notes).toHaveLength(3)
    // Newest first: the last applicant's notification comes first.
    expect(notes.map((n) => n.message.split(' ')[0])).toEqual(
      mentees.map((m) => m.user?.username).reverse(),
    )
    const times = notes.map((n) => Date.parse(n.createdAt))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    for (const note of notes) {
      expect(note).toMatchObject({
        id: expect.any(String),
        title: 'New application',
        message: expect.any(String),
        read: false,
      })
      expect(Number.isNaN(Date.parse(note.createdAt))).toBe(false)
    }
  })

  it('shows only the caller’s own notifications', async () => {
    const { mentor, mentees } = await mentorWithApplicants(1)
    const mentorIds = new Set((await notificationsOf(mentor)).map((n) => n.id))
    const menteeNotes = await notificationsOf(mentees[0] as Client)

    expect(menteeNotes.some((n) => mentorIds.has(n.id))).toBe(false)
    expect(menteeNotes.some((n) => n.kind === 'new_application')).toBe(false)
    const stranger = await server.signIn(unique('n-stranger'))
    expect(await notificationsOf(stranger)).toEqual([])
  })

  it('answers 401 without a session', async () => {
    expectProblem(await server.anonymous().get('/api/notifications'), 401)
  })
})

describe('PATCH /api/notifications/{id}', () => {
  it('marks one notification read and leaves the others unread', async () => {
    const { mentor } = await mentorWithApplicants(2)
    const [first, second] = await notificationsOf(mentor)

    const res = await mentor.patch(`/api/notifications/${first?.id}`)

    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: first?.id, read: true, title: first?.title })
    const after = await notificationsOf(mentor)
    expect(after.find((n) => n.id === first?.id)?.read).toBe(true)
    expect(after.find((n) => n.id === second?.id)?.read).toBe(false)
    // Marking again is harmless.
    expect((await mentor.patch(`/api/notifications/${first?.id}`)).status).toBe(200)
  })

  it("answers 404 for someone else's notification and leaves it unread", async () => {
    const { mentor } = await mentorWithApplicants(1)
    const [note] = await notificationsOf(mentor)
    const other = await server.signIn(unique('n-snoop'))

    expectProblem(
      await other.patch(`/api/notifications/${note?.id}`),
      404,
      /Notification not found/,
    )
    expectProblem(await admin.patch(`/api/notifications/${note?.id}`), 404)
    expect((await notificationsOf(mentor)).find((n) => n.id === note?.id)?.read).toBe(false)
  })

  it('answers 404 for an unknown or malformed id and 401 anonymously', async () => {
    const me = await server.signIn(unique('n-user'))
    expectProblem(await me.patch('/api/notifications/00000000-0000-4000-8000-000000000000'), 404)
    expectProblem(await me.patch('/api/notifications/123'), 404)
    expectProblem(
      await server.anonymous().patch('/api/notifications/00000000-0000-4000-8000-000000000000'),
      401,
    )
  })
})

/** The spec's object: the four switches, all on. */
const ALL_TRUE = {
  emailNotifications: {
    newApplications: true,
    topicStatusUpdates: true,
    applicationStatusUpdates: true,
    newTopicsForReview: true,
  },
}
/** What GET answers a new user: the spec's switches all on, and the delivery defaults of issue 18. */
const DEFAULTS = { ...DEFAULT_PREFERENCES, ...ALL_TRUE }

describe('GET /api/user/notification-preferences', () => {
  it('answers every preference on for a new user', async () => {
    const me = await server.signIn(unique('p-new'))
    const res = await me.get('/api/user/notification-preferences')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(DEFAULTS)
  })

  it('answers the defaults even when the preferences row is missing', async () => {
    const name = unique('p-norow')
    const me = await server.signIn(name)
    await server.sql`
      DELETE FROM notification_preferences
      WHERE user_id = (SELECT id FROM users WHERE username = ${name})`
    expect((await me.get('/api/user/notification-preferences')).body).toEqual(DEFAULTS)
  })

  it('answers 401 without a session', async () => {
    expectProblem(await server.anonymous().get('/api/user/notification-preferences'), 401)
  })
})

describe('PATCH /api/user/notification-preferences', () => {
  it('saves the full object; GET reflects it; other users are unaffected', async () => {
    const me = await server.signIn(unique('p-saver'))
    const other = await server.signIn(unique('p-other'))
    const chosen = {
      emailNotifications: {
        newApplications: false,
        topicStatusUpdates: true,
        applicationStatusUpdates: false,
        newTopicsForReview: false,
      },
    }

    const res = await me.patch('/api/user/notification-preferences', chosen)

    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...DEFAULTS, ...chosen })
    expect((await me.get('/api/user/notification-preferences')).body).toEqual({
      ...DEFAULTS,
      ...chosen,
    })
    expect((await other.get('/api/user/notification-preferences')).body).toEqual(DEFAULTS)

    const back = await me.patch('/api/user/notification-preferences', ALL_TRUE)
    expect(back.body).toEqual(DEFAULTS)
  })

  it('saves the delivery settings beside them, and a PATCH of the spec’s object alone keeps them', async () => {
    const me = await server.signIn(unique('p-delivery'))
    const delivery = {
      reminders: false,
      emailDelivery: { ...DEFAULT_PREFERENCES.emailDelivery, newApplications: 'digest' },
      timeZone: 'America/Sao_Paulo',
      digestHour: 7,
      quietHours: { enabled: true, from: 22, to: 7, weekends: false },
    }
    const res = await me.patch('/api/user/notification-preferences', { ...ALL_TRUE, ...delivery })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual({ ...ALL_TRUE, ...delivery })
    const spec = { emailNotifications: { ...ALL_TRUE.emailNotifications, newApplications: false } }
    expect((await me.patch('/api/user/notification-preferences', spec)).body).toEqual({
      ...delivery,
      ...spec,
    })
    const bad = await me.patch('/api/user/notification-preferences', {
      ...ALL_TRUE,
      timeZone: 'Atlantis/Lost_City',
    })
    expectProblem(bad, 400)
    expect((await me.get('/api/user/notification-preferences')).body.timeZone).toBe(
      'America/Sao_Paulo',
    )
  })

  it.each([
    ['a partial object', { emailNotifications: { newApplications: false } }],
    ['an empty object', {}],
    [
      'a non-boolean value',
      { emailNotifications: { ...ALL_TRUE.emailNotifications, newApplications: 'no' } },
    ],
    [
      'a null value',
      { emailNotifications: { ...ALL_TRUE.emailNotifications, topicStatusUpdates: null } },
    ],
    [
      'an unknown preference',
      { emailNotifications: { ...ALL_TRUE.emailNotifications, smsAlerts: true } },
    ],
    ['an unknown top-level key', { ...ALL_TRUE, pushNotifications: {} }],
    ['the flat object without emailNotifications', { ...ALL_TRUE.emailNotifications }],
  ])('refuses %s with 400 and keeps the saved preferences', async (_name, body) => {
    const me = await server.signIn(unique('p-bad'))
    const res = await me.patch('/api/user/notification-preferences', body)
    expectProblem(res, 400)
    expect(res.body.errors?.length).toBeGreaterThan(0)
    expect((await me.get('/api/user/notification-preferences')).body).toEqual(DEFAULTS)
  })

  it('answers 401 without a session', async () => {
    expectProblem(
      await server.anonymous().patch('/api/user/notification-preferences', ALL_TRUE),
      401,
    )
  })
})
