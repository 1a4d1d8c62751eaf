import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pushResponseSchema } from '../../shared/sync.ts'
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
  admin = await signInAdmin(server, 'invitations-admin')
})
afterAll(async () => {
  await server?.stop()
})

/** A signed-in person who said they are looking for a mentor. */
async function seeker(prefix = 'seeker'): Promise<Client> {
  const name = unique(prefix)
  const client = await server.signIn(name)
  const res = await client.patch(`/api/users/${name}`, { lookingForMentor: true })
  expect(res.status, res.text).toBe(200)
  return client
}

const idOf = (client: Client) => client.user?.id ?? ''
const key = () => ({ headers: { 'Idempotency-Key': randomUUID() } })

describe('POST /api/topics/{id}/invitations', () => {
  it('creates an open invitation and notifies the person invited, in their words', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const mentee = await seeker()
    const topic = await approvedTopic(admin, mentor)

    const res = await mentor.post(`/api/topics/${topic.id}/invitations`, {
      menteeId: idOf(mentee),
    })

    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      topicId: topic.id,
      menteeId: idOf(mentee),
      mentorId: idOf(mentor),
      status: 'open',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    const [note] = await notificationsOf(mentee, 'invitation')
    expect(note).toMatchObject({
      title: 'Invitation to apply',
      link: `/topics/${topic.id}`,
      read: false,
    })
    expect(note.message).toMatch(new RegExp(`invited you to apply for "${topic.subject}"\\.$`))
    expect(await notificationsOf(mentor, 'invitation')).toEqual([])
  })

  it('queues the e-mail by the application status updates preference, like other notifications', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const wants = await seeker()
    const opted = await seeker()
    for (const client of [wants, opted]) {
      await server.sql`
        UPDATE users SET email = ${`${client.user?.username}@example.com`} WHERE id = ${idOf(client)}`
    }
    const off = await opted.patch('/api/user/notification-preferences', {
      emailNotifications: {
        newApplications: true,
        topicStatusUpdates: true,
        applicationStatusUpdates: false,
        newTopicsForReview: true,
      },
    })
    expect(off.status, off.text).toBe(200)
    const topic = await approvedTopic(admin, mentor)

    for (const client of [wants, opted]) {
      const res = await mentor.post(`/api/topics/${topic.id}/invitations`, {
        menteeId: idOf(client),
      })
      expect(res.status).toBe(201)
    }

    const jobs = async (client: Client) =>
      server.sql<{ kind: string; notificationKind: string }[]>`
        SELECT kind, payload->>'kind' AS "notificationKind" FROM delivery_jobs
        WHERE user_id = ${idOf(client)}`
    expect(await jobs(wants)).toEqual([{ kind: 'email', notificationKind: 'invitation' }])
    expect(await jobs(opted)).toEqual([])
    // The notification itself is there either way.
    expect(await notificationsOf(opted, 'invitation')).toHaveLength(1)
  })

  it('takes a client-chosen id and replays the answer for the same Idempotency-Key', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const mentee = await seeker()
    const topic = await approvedTopic(admin, mentor)
    const id = randomUUID()
    const options = key()

    const first = await mentor.post(
      `/api/topics/${topic.id}/invitations`,
      { id, menteeId: idOf(mentee) },
      options,
    )
    const again = await mentor.post(
      `/api/topics/${topic.id}/invitations`,
      { id, menteeId: idOf(mentee) },
      options,
    )

    expect(first.status, first.text).toBe(201)
    expect(first.body.id).toBe(id)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(await notificationsOf(mentee, 'invitation')).toHaveLength(1)
  })

  it('invites a person once per topic, whatever became of the first invitation', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const mentee = await seeker()
    const topic = await approvedTopic(admin, mentor)
    const first = await mentor.post(`/api/topics/${topic.id}/invitations`, {
      menteeId: idOf(mentee),
    })
    expect(first.status).toBe(201)

    const body = { menteeId: idOf(mentee) }
    expectProblem(
      await mentor.post(`/api/topics/${topic.id}/invitations`, body),
      409,
      /already invited this person/,
    )
    expect((await mentee.post(`/api/invitations/${first.body.id}/decline`)).status).toBe(200)
    expectProblem(
      await mentor.post(`/api/topics/${topic.id}/invitations`, body),
      409,
      /already invited this person/,
    )
  })

  it('makes one invitation of two concurrent requests for the same person and topic', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const mentee = await seeker()
    const topic = await approvedTopic(admin, mentor)

    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        mentor.post(`/api/topics/${topic.id}/invitations`, { menteeId: idOf(mentee) }),
      ),
    )

    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409])
    const rows = await server.sql`
      SELECT 1 FROM invitations WHERE topic_id = ${topic.id} AND mentee_id = ${idOf(mentee)}`
    expect(rows).toHaveLength(1)
    expect(await notificationsOf(mentee, 'invitation')).toHaveLength(1)
  })

  it('refuses anyone but the mentor with 403', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const mentee = await seeker()
    const other = await server.signIn(unique('not-the-mentor'))
    const topic = await approvedTopic(admin, mentor)

    for (const caller of [other, admin]) {
      expectProblem(
        await caller.post(`/api/topics/${topic.id}/invitations`, { menteeId: idOf(mentee) }),
        403,
        /Only the mentor of a topic can invite/,
      )
    }
  })

  it('refuses with 409: a topic not approved, a full one, oneself, a person not looking, one who applied', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const mentee = await seeker()
    const proposed = await createTopic(mentor)
    expectProblem(
      await mentor.post(`/api/topics/${proposed.id}/invitations`, { menteeId: idOf(mentee) }),
      409,
      /only to an approved topic/,
    )

    const full = await approvedTopic(admin, mentor, { maxMentees: 1 })
    const taken = await seeker()
    const applied = await taken.post(`/api/topics/${full.id}/apply`)
    await mentor.patch(`/api/applications/${applied.body.id}`, { status: 'accepted' })
    expectProblem(
      await mentor.post(`/api/topics/${full.id}/invitations`, { menteeId: idOf(mentee) }),
      409,
      /no free place/,
    )

    const topic = await approvedTopic(admin, mentor)
    await mentor.patch(`/api/users/${mentor.user?.username}`, { lookingForMentor: true })
    expectProblem(
      await mentor.post(`/api/topics/${topic.id}/invitations`, { menteeId: idOf(mentor) }),
      409,
      /cannot invite yourself/,
    )
    const notLooking = await server.signIn(unique('not-looking'))
    expectProblem(
      await mentor.post(`/api/topics/${topic.id}/invitations`, { menteeId: idOf(notLooking) }),
      409,
      /not said that they are looking for a mentor/,
    )
    const applicant = await seeker()
    expect((await applicant.post(`/api/topics/${topic.id}/apply`)).status).toBe(201)
    expectProblem(
      await mentor.post(`/api/topics/${topic.id}/invitations`, { menteeId: idOf(applicant) }),
      409,
      /already applied/,
    )
  })

  it('answers 404 for a topic the caller cannot see and for an unknown person', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const stranger = await server.signIn(unique('stranger'))
    const mentee = await seeker()
    const proposed = await createTopic(mentor)
    expectProblem(
      await stranger.post(`/api/topics/${proposed.id}/invitations`, { menteeId: idOf(mentee) }),
      404,
      /Topic not found/,
    )
    const topic = await approvedTopic(admin, mentor)
    expectProblem(
      await mentor.post(`/api/topics/${topic.id}/invitations`, { menteeId: randomUUID() }),
      404,
      /User not found/,
    )
    expectProblem(
      await mentor.post(`/api/topics/${randomUUID()}/invitations`, { menteeId: idOf(mentee) }),
      404,
      /Topic not found/,
    )
  })
})

describe('POST /api/invitations/{id}/decline and GET /api/invitations', () => {
  it('lets the person invited decline once; both see it declined, newest first', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const mentee = await seeker()
    const older = await approvedTopic(admin, mentor)
    const newer = await approvedTopic(admin, mentor)
    const a = await mentor.post(`/api/topics/${older.id}/invitations`, { menteeId: idOf(mentee) })
    const b = await mentor.post(`/api/topics/${newer.id}/invitations`, { menteeId: idOf(mentee) })

    const declined = await mentee.post(`/api/invitations/${a.body.id}/decline`)
    expect(declined.status, declined.text).toBe(200)
    expect(declined.body).toMatchObject({ id: a.body.id, status: 'declined' })

    expectProblem(
      await mentee.post(`/api/invitations/${a.body.id}/decline`),
      409,
      /already been declined/,
    )
    for (const client of [mentor, mentee]) {
      const list = await client.get('/api/invitations')
      expect(list.status).toBe(200)
      expect(list.body.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
        [b.body.id, 'open'],
        [a.body.id, 'declined'],
      ])
    }
  })

  it('answers 403 to the mentor and 404 to anyone else', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const mentee = await seeker()
    const other = await server.signIn(unique('other'))
    const topic = await approvedTopic(admin, mentor)
    const sent = await mentor.post(`/api/topics/${topic.id}/invitations`, {
      menteeId: idOf(mentee),
    })

    expectProblem(
      await mentor.post(`/api/invitations/${sent.body.id}/decline`),
      403,
      /Only the person invited/,
    )
    expectProblem(
      await other.post(`/api/invitations/${sent.body.id}/decline`),
      404,
      /Invitation not found/,
    )
    expectProblem(await admin.post(`/api/invitations/${sent.body.id}/decline`), 404)
    expectProblem(await mentee.post(`/api/invitations/${randomUUID()}/decline`), 404)
    expect((await other.get('/api/invitations')).body).toEqual([])
  })

  it('replays a decline through /api/sync/push', async () => {
    const mentor = await server.signIn(unique('inviting-mentor'))
    const mentee = await seeker()
    const topic = await approvedTopic(admin, mentor)
    const sent = await mentor.post(`/api/topics/${topic.id}/invitations`, {
      menteeId: idOf(mentee),
    })
    const mutation = {
      id: randomUUID(),
      method: 'POST' as const,
      path: `/api/invitations/${sent.body.id}/decline`,
      body: {},
    }
    for (let i = 0; i < 2; i += 1) {
      const res = await mentee.post('/api/sync/push', { clientId: 'c', mutations: [mutation] })
      expect(res.status, res.text).toBe(200)
      const [result] = pushResponseSchema.parse(res.body).results
      expect(result).toMatchObject({ status: 200, body: { status: 'declined' } })
    }
  })
})
