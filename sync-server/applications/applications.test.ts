import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  approvedTopic,
  createTopic,
  expectProblem,
  notificationsOf,
  signInAdmin,
  unique,
} from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'apps-admin')
})
afterAll(async () => {
  await server?.stop()
})

async function apply(mentee: Client, topicId: string) {
  const res = await mentee.post(`/api/topics/${topicId}/apply`)
  expect(res.status, res.text).toBe(201)
  return res.body as { id: string }
}

async function decide(mentor: Client, applicationId: string, body: unknown) {
  return mentor.patch(`/api/applications/${applicationId}`, body)
}

describe('POST /api/topics/{id}/apply', () => {
  it('creates a pending application with its mentee and topic', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)

    const res = await mentee.post(`/api/topics/${topic.id}/apply`)

    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      id: expect.any(String),
      topicId: topic.id,
      status: 'pending',
      rejectionReason: null,
      mentee: {
        id: mentee.user?.id,
        username: mentee.user?.username,
        full_name: expect.any(String),
        seniority: null,
      },
      topic: {
        id: topic.id,
        subject: topic.subject,
        status: 'approved',
        mentor: {
          id: mentor.user?.id,
          username: mentor.user?.username,
          full_name: expect.any(String),
        },
      },
    })
  })

  it("tells the mentor with a 'new_application' notification", async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)

    await apply(mentee, topic.id)

    const notifications = await notificationsOf(mentor)
    const note = notifications.find((n) => n.kind === 'new_application')
    expect(note).toBeDefined()
    expect(note?.message).toContain(topic.subject)
    expect(note?.message).toContain(mentee.user?.username)
    expect(note?.read).toBe(false)
    // The mentee is not told about their own application.
    expect((await notificationsOf(mentee)).some((n) => n.kind === 'new_application')).toBe(false)
  })

  it('refuses the mentor applying to their own topic with 403', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const topic = await approvedTopic(admin, mentor)

    expectProblem(await mentor.post(`/api/topics/${topic.id}/apply`), 403, /own topic/)
  })

  it('answers 404 for a proposed topic a non-admin cannot see', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await createTopic(mentor)

    expectProblem(await mentee.post(`/api/topics/${topic.id}/apply`), 404, /Topic not found/)
  })

  it('answers 404 to a non-admin and 409 to an admin for a rejected topic', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await createTopic(mentor)
    const review = await admin.post(`/api/admin/topics/${topic.id}/review`, {
      status: 'rejected',
      rejectionReason: 'Too vague',
    })
    expect(review.status).toBe(200)

    expectProblem(await mentee.post(`/api/topics/${topic.id}/apply`), 404)
    expectProblem(await admin.post(`/api/topics/${topic.id}/apply`), 409, /rejected/)
  })

  it('refuses applying to a started or concluded topic with 409', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    expect((await mentor.post(`/api/topics/${topic.id}/start`)).status).toBe(200)

    expectProblem(await mentee.post(`/api/topics/${topic.id}/apply`), 409, /started/)

    const concluded = await mentor.post(`/api/topics/${topic.id}/conclude`, {
      mentorFeedback: 'Went well',
    })
    expect(concluded.status).toBe(200)
    expectProblem(await mentee.post(`/api/topics/${topic.id}/apply`), 409, /concluded/)
    expect((await mentee.get('/api/my-applications')).body).toEqual([])
  })

  it('refuses a second application by the same mentee with 409', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    await apply(mentee, topic.id)

    expectProblem(await mentee.post(`/api/topics/${topic.id}/apply`), 409, /already applied/)
    const [row] = await server.sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM applications WHERE topic_id = ${topic.id}`
    expect(row?.count).toBe(1)
  })

  it('refuses applying to a full topic with 409', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const first = await server.signIn(unique('mentee'))
    const late = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor, { maxMentees: 1 })
    const application = await apply(first, topic.id)
    expect((await decide(mentor, application.id, { status: 'accepted' })).status).toBe(200)

    expectProblem(await late.post(`/api/topics/${topic.id}/apply`), 409, /full/)
  })

  it('refuses anonymous callers with 401', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const topic = await approvedTopic(admin, mentor)

    expectProblem(await server.anonymous().post(`/api/topics/${topic.id}/apply`), 401)
  })

  it('answers 404 for an unknown or malformed topic id', async () => {
    const mentee = await server.signIn(unique('mentee'))
    expectProblem(
      await mentee.post('/api/topics/00000000-0000-4000-8000-000000000000/apply'),
      404,
      /Topic not found/,
    )
    expectProblem(await mentee.post('/api/topics/not-a-uuid/apply'), 404)
  })
})

describe('the answers of apply and decide', () => {
  it('are byte for byte what a read of the application right after answers', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const accepted = await server.signIn(unique('mentee'))
    const rejected = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor, { maxMentees: 2 })
    const read = async (mentee: Client) => {
      const res = await mentee.get(`/api/topics/${topic.id}/my-application`)
      expect(res.status, res.text).toBe(200)
      return res.text
    }
    const first = await accepted.post(`/api/topics/${topic.id}/apply`)
    expect(first.status, first.text).toBe(201)
    expect(first.text).toBe(await read(accepted))
    const second = await rejected.post(`/api/topics/${topic.id}/apply`)
    expect(second.status, second.text).toBe(201)
    expect(second.text).toBe(await read(rejected))
    // The mentor is told the applicant's name, as the answer gives it.
    const name = second.body.mentee.full_name.trim() || second.body.mentee.username
    const notes = await notificationsOf(mentor, 'new_application')
    expect(notes.map((n: { message: string }) => n.message)).toContain(
      `${name} applied to your topic "${topic.subject}".`,
    )
    const accept = await decide(mentor, first.body.id, { status: 'accepted' })
    expect(accept.status, accept.text).toBe(200)
    expect(accept.body).toMatchObject({ status: 'accepted' })
    expect(accept.text).toBe(await read(accepted))
    const reject = await decide(mentor, second.body.id, {
      status: 'rejected',
      rejectionReason: 'Another time',
    })
    expect(reject.status, reject.text).toBe(200)
    expect(reject.body).toMatchObject({ status: 'rejected', rejectionReason: 'Another time' })
    expect(reject.text).toBe(await read(rejected))
  })
})

describe('GET /api/topics/{id}/my-application', () => {
  it('answers null before applying and the application afterwards', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)

    const before = await mentee.get(`/api/topics/${topic.id}/my-application`)
    expect(before.status).toBe(200)
    expect(before.body).toBeNull()

    const application = await apply(mentee, topic.id)
    const after = await mentee.get(`/api/topics/${topic.id}/my-application`)
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({
      id: application.id,
      status: 'pending',
      rejectionReason: null,
    })
    // Someone else's application is not "mine".
    const other = await server.signIn(unique('mentee'))
    expect((await other.get(`/api/topics/${topic.id}/my-application`)).body).toBeNull()
  })

  it('answers 401 anonymously and 404 for a topic the user cannot see', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const hidden = await createTopic(mentor)

    expectProblem(await server.anonymous().get(`/api/topics/${hidden.id}/my-application`), 401)
    expectProblem(await mentee.get(`/api/topics/${hidden.id}/my-application`), 404)
  })
})

describe('GET /api/my-applications', () => {
  it("lists only the caller's applications, each with topic and mentor", async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const bystander = await server.signIn(unique('mentee'))
    const a = await approvedTopic(admin, mentor)
    const b = await approvedTopic(admin, mentor)
    await apply(mentee, a.id)
    await apply(mentee, b.id)
    await apply(bystander, a.id)

    const res = await mentee.get('/api/my-applications')

    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(2)
    expect(res.body.map((x: { topic: { id: string } }) => x.topic.id).sort()).toEqual(
      [a.id, b.id].sort(),
    )
    for (const application of res.body) {
      expect(application.mentee.id).toBe(mentee.user?.id)
      expect(application.topic).toMatchObject({
        subject: expect.any(String),
        mentor: { id: mentor.user?.id, username: mentor.user?.username },
      })
    }
  })

  it('answers an empty list for a new user and 401 anonymously', async () => {
    const fresh = await server.signIn(unique('fresh'))
    expect((await fresh.get('/api/my-applications')).body).toEqual([])
    expectProblem(await server.anonymous().get('/api/my-applications'), 401)
  })
})

describe('GET /api/topics/{id}/applications', () => {
  it('lets the mentor and an administrator read them, and refuses others with 403', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const stranger = await server.signIn(unique('stranger'))
    const topic = await approvedTopic(admin, mentor)
    const application = await apply(mentee, topic.id)

    for (const reader of [mentor, admin]) {
      const res = await reader.get(`/api/topics/${topic.id}/applications`)
      expect(res.status).toBe(200)
      expect(res.body).toHaveLength(1)
      expect(res.body[0]).toMatchObject({
        id: application.id,
        status: 'pending',
        mentee: { id: mentee.user?.id, username: mentee.user?.username },
      })
    }
    expectProblem(await mentee.get(`/api/topics/${topic.id}/applications`), 403)
    expectProblem(await stranger.get(`/api/topics/${topic.id}/applications`), 403)
    expectProblem(await server.anonymous().get(`/api/topics/${topic.id}/applications`), 401)
  })
})

describe('PATCH /api/applications/{id}', () => {
  it('accepts: the application is accepted, the topic counts it and the mentee is told', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    const application = await apply(mentee, topic.id)

    const res = await decide(mentor, application.id, { status: 'accepted' })

    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: application.id,
      status: 'accepted',
      rejectionReason: null,
    })
    const after = await mentee.get(`/api/topics/${topic.id}`)
    expect(after.body.currentMentees).toBe(1)
    const note = (await notificationsOf(mentee)).find((n) => n.kind === 'application_accepted')
    expect(note?.message).toContain(topic.subject)
  })

  it('refuses someone who is not the mentor with 403 before looking at the body', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    const application = await apply(mentee, topic.id)

    expectProblem(await decide(admin, application.id, { status: 'maybe' }), 403, /mentor/)
    expectProblem(await decide(mentee, application.id, {}), 403, /mentor/)
    expectProblem(await decide(mentor, application.id, { status: 'maybe' }), 400)
  })

  it('rejects with a reason the mentee sees in their list and notification', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    const application = await apply(mentee, topic.id)

    const res = await decide(mentor, application.id, {
      status: 'rejected',
      rejectionReason: '  Looking for more experience  ',
    })

    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Looking for more experience',
    })
    const mine = await mentee.get('/api/my-applications')
    expect(mine.body[0]).toMatchObject({
      id: application.id,
      status: 'rejected',
      rejectionReason: 'Looking for more experience',
    })
    const note = (await notificationsOf(mentee)).find((n) => n.kind === 'application_rejected')
    expect(note?.message).toContain('Looking for more experience')
    expect((await mentee.get(`/api/topics/${topic.id}`)).body.currentMentees).toBe(0)
  })

  it('refuses a rejection without a reason, or with a blank one, with 400', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    const application = await apply(mentee, topic.id)

    for (const body of [
      { status: 'rejected' },
      { status: 'rejected', rejectionReason: '' },
      { status: 'rejected', rejectionReason: '   \n ' },
      { status: 'rejected', rejectionReason: null },
    ]) {
      const res = await decide(mentor, application.id, body)
      expectProblem(res, 400, /reason/i)
      expect(res.body.errors).toContainEqual(
        expect.objectContaining({ path: 'rejectionReason', message: expect.any(String) }),
      )
    }
    const still = await mentee.get(`/api/topics/${topic.id}/my-application`)
    expect(still.body.status).toBe('pending')
  })

  it('refuses a status other than accepted or rejected with 400', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    const application = await apply(mentee, topic.id)

    for (const body of [{ status: 'pending' }, { status: 'maybe' }, {}, { status: 1 }]) {
      const res = await decide(mentor, application.id, body)
      expectProblem(res, 400)
      expect(res.body.errors?.[0]?.path).toBe('status')
    }
    expectProblem(await decide(mentor, application.id, { status: 'accepted', extra: true }), 400)
  })

  it('lets only the mentor decide: admin 403, the applicant 403 or 404, a stranger 404', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const stranger = await server.signIn(unique('stranger'))
    const topic = await approvedTopic(admin, mentor)
    const application = await apply(mentee, topic.id)

    expectProblem(await decide(admin, application.id, { status: 'accepted' }), 403, /mentor/)
    const own = await decide(mentee, application.id, { status: 'accepted' })
    expect([403, 404]).toContain(own.status)
    expectProblem(own, own.status)
    expectProblem(
      await decide(stranger, application.id, { status: 'accepted' }),
      404,
      /Application not found/,
    )
    expectProblem(
      await server.anonymous().patch(`/api/applications/${application.id}`, { status: 'accepted' }),
      401,
    )
    const still = await mentee.get(`/api/topics/${topic.id}/my-application`)
    expect(still.body.status).toBe('pending')
    expect((await mentee.get(`/api/topics/${topic.id}`)).body.currentMentees).toBe(0)
  })

  it('refuses deciding an application that is no longer pending with 409', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const accepted = await server.signIn(unique('mentee'))
    const rejected = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    const a = await apply(accepted, topic.id)
    const r = await apply(rejected, topic.id)
    expect((await decide(mentor, a.id, { status: 'accepted' })).status).toBe(200)
    expect((await decide(mentor, r.id, { status: 'rejected', rejectionReason: 'No' })).status).toBe(
      200,
    )

    expectProblem(await decide(mentor, a.id, { status: 'accepted' }), 409, /already accepted/)
    expectProblem(
      await decide(mentor, a.id, { status: 'rejected', rejectionReason: 'Changed my mind' }),
      409,
    )
    expectProblem(await decide(mentor, r.id, { status: 'accepted' }), 409, /already rejected/)
    expect((await mentor.get(`/api/topics/${topic.id}`)).body.currentMentees).toBe(1)
  })

  it('refuses accepting when the topic is full with 409', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const first = await server.signIn(unique('mentee'))
    const second = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor, { maxMentees: 1 })
    const a = await apply(first, topic.id)
    const b = await apply(second, topic.id)
    expect((await decide(mentor, a.id, { status: 'accepted' })).status).toBe(200)

    expectProblem(await decide(mentor, b.id, { status: 'accepted' }), 409, /full/)
    expect((await second.get(`/api/topics/${topic.id}/my-application`)).body.status).toBe('pending')
    // Rejecting is still possible when full.
    expect(
      (await decide(mentor, b.id, { status: 'rejected', rejectionReason: 'Full' })).status,
    ).toBe(200)
  })

  it('closes pending applications when the topic starts, after which they cannot be decided', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    const application = await apply(mentee, topic.id)
    expect((await mentor.post(`/api/topics/${topic.id}/start`)).status).toBe(200)

    const mine = await mentee.get(`/api/topics/${topic.id}/my-application`)
    expect(mine.body).toMatchObject({
      status: 'rejected',
      rejectionReason: 'The topic has started',
    })
    expectProblem(await decide(mentor, application.id, { status: 'accepted' }), 409)
  })

  it('answers 404 for an unknown or malformed application id', async () => {
    const mentor = await server.signIn(unique('mentor'))
    expectProblem(
      await decide(mentor, '00000000-0000-4000-8000-000000000000', { status: 'accepted' }),
      404,
      /Application not found/,
    )
    expectProblem(await decide(mentor, 'nope', { status: 'accepted' }), 404)
  })
})
