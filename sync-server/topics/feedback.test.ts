import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, expectProblem, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'feedback-admin')
})
afterAll(async () => {
  await server?.stop()
})

type Cast = {
  topicId: string
  mentor: Client
  accepted: Client
  rejected: Client
  stranger: Client
}

/**
 * A topic with one accepted and one rejected applicant, run through to
 * `until` (started or concluded).
 */
async function topicWithCast(until: 'started' | 'concluded'): Promise<Cast> {
  const mentor = await server.signIn(unique('fb-mentor'))
  const accepted = await server.signIn(unique('fb-accepted'))
  const rejected = await server.signIn(unique('fb-rejected'))
  const stranger = await server.signIn(unique('fb-stranger'))
  const { id: topicId } = await approvedTopic(admin, mentor, {
    subject: unique('Feedback topic'),
    seniorityRequired: ['junior', 'mid'],
  })
  const a = await accepted.post(`/api/topics/${topicId}/apply`)
  const r = await rejected.post(`/api/topics/${topicId}/apply`)
  expect(
    (await mentor.patch(`/api/applications/${a.body.id}`, { status: 'accepted' })).status,
  ).toBe(200)
  expect(
    (
      await mentor.patch(`/api/applications/${r.body.id}`, {
        status: 'rejected',
        rejectionReason: 'Not this time',
      })
    ).status,
  ).toBe(200)
  expect((await mentor.post(`/api/topics/${topicId}/start`)).status).toBe(200)
  if (until === 'concluded') {
    const res = await mentor.post(`/api/topics/${topicId}/conclude`, {
      mentorFeedback: 'A good run',
    })
    expect(res.status, res.text).toBe(200)
  }
  return { topicId, mentor, accepted, rejected, stranger }
}

let concluded: Cast

beforeAll(async () => {
  concluded = await topicWithCast('concluded')
})

describe('POST /api/topics/{id}/feedback', () => {
  it('lets the mentor give feedback, marked isMentor', async () => {
    const { topicId, mentor } = concluded
    const res = await mentor.post(`/api/topics/${topicId}/feedback`, {
      feedback: 'Great mentees',
      rating: 4,
    })

    expect([200, 201]).toContain(res.status)
    expect(res.body).toMatchObject({
      id: expect.any(String),
      feedback: 'Great mentees',
      rating: 4,
      isMentor: true,
      user: { id: mentor.user?.id, username: mentor.user?.username },
    })
  })

  it('lets an accepted mentee give feedback, marked not isMentor', async () => {
    const { topicId, accepted } = concluded
    const res = await accepted.post(`/api/topics/${topicId}/feedback`, {
      feedback: 'Learned a lot',
      rating: 5,
    })

    expect([200, 201]).toContain(res.status)
    expect(res.body).toMatchObject({
      feedback: 'Learned a lot',
      rating: 5,
      isMentor: false,
      user: { id: accepted.user?.id, username: accepted.user?.username },
    })
  })

  it('refuses a rejected applicant, a stranger and an administrator with 403', async () => {
    const { topicId, rejected, stranger } = concluded
    for (const client of [rejected, stranger, admin]) {
      expectProblem(
        await client.post(`/api/topics/${topicId}/feedback`, { feedback: 'Hi', rating: 3 }),
        403,
        /mentor and the accepted mentees/,
      )
    }
    expectProblem(
      await server.anonymous().post(`/api/topics/${topicId}/feedback`, { feedback: 'Hi' }),
      401,
    )
  })

  it('refuses feedback on a started topic with 409', async () => {
    const started = await topicWithCast('started')
    for (const client of [started.mentor, started.accepted]) {
      expectProblem(
        await client.post(`/api/topics/${started.topicId}/feedback`, { feedback: 'Early' }),
        409,
        /concluded/,
      )
    }
    expect((await started.mentor.get(`/api/topics/${started.topicId}/feedback`)).body).toEqual([])
  })

  it('edits on a second post: one row per user with the new text and rating', async () => {
    const cast = await topicWithCast('concluded')
    const first = await cast.accepted.post(`/api/topics/${cast.topicId}/feedback`, {
      feedback: 'First thoughts',
      rating: 2,
    })
    expect(first.status).toBe(201)
    const second = await cast.accepted.post(`/api/topics/${cast.topicId}/feedback`, {
      feedback: 'Second thoughts',
      rating: 4,
    })
    expect(second.status).toBe(200)
    expect(second.body.id).toBe(first.body.id)

    const list = await cast.mentor.get(`/api/topics/${cast.topicId}/feedback`)
    expect(list.body).toHaveLength(1)
    expect(list.body[0]).toMatchObject({ feedback: 'Second thoughts', rating: 4, isMentor: false })
    const [row] = await server.sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM feedback WHERE topic_id = ${cast.topicId}`
    expect(row?.count).toBe(1)
  })

  it('uses rating 5 when the rating is omitted', async () => {
    const cast = await topicWithCast('concluded')
    const res = await cast.mentor.post(`/api/topics/${cast.topicId}/feedback`, {
      feedback: 'No stars given',
    })
    expect(res.status).toBe(201)
    expect(res.body.rating).toBe(5)
  })

  it.each([
    ['rating 0', { feedback: 'x', rating: 0 }, 'rating'],
    ['rating 6', { feedback: 'x', rating: 6 }, 'rating'],
    ['rating 2.5', { feedback: 'x', rating: 2.5 }, 'rating'],
    ['rating "5"', { feedback: 'x', rating: '5' }, 'rating'],
    ['rating null', { feedback: 'x', rating: null }, 'rating'],
    ['blank feedback', { feedback: '   ', rating: 3 }, 'feedback'],
    ['empty feedback', { feedback: '', rating: 3 }, 'feedback'],
    ['missing feedback', { rating: 3 }, 'feedback'],
    ['feedback not a string', { feedback: 42 }, 'feedback'],
  ])('refuses %s with 400 naming the field', async (_name, body, path) => {
    const { topicId, accepted } = concluded
    const res = await accepted.post(`/api/topics/${topicId}/feedback`, body)
    expectProblem(res, 400)
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path }))
  })

  it('answers 404 for a topic that does not exist', async () => {
    const { accepted } = concluded
    expectProblem(
      await accepted.post('/api/topics/00000000-0000-4000-8000-000000000000/feedback', {
        feedback: 'x',
      }),
      404,
      /Topic not found/,
    )
  })
})

describe('GET /api/topics/{id}/feedback', () => {
  it('lists every participant feedback with its user, for any signed-in reader', async () => {
    const cast = await topicWithCast('concluded')
    await cast.accepted.post(`/api/topics/${cast.topicId}/feedback`, { feedback: 'Mentee says' })
    await cast.mentor.post(`/api/topics/${cast.topicId}/feedback`, {
      feedback: 'Mentor says',
      rating: 3,
    })

    const res = await cast.stranger.get(`/api/topics/${cast.topicId}/feedback`)

    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(2)
    const byUser = Object.fromEntries(
      res.body.map((f: { user: { username: string } }) => [f.user.username, f]),
    )
    expect(byUser[cast.mentor.user?.username ?? '']).toMatchObject({
      feedback: 'Mentor says',
      rating: 3,
      isMentor: true,
      user: { id: cast.mentor.user?.id, username: cast.mentor.user?.username },
    })
    expect(byUser[cast.accepted.user?.username ?? '']).toMatchObject({
      feedback: 'Mentee says',
      rating: 5,
      isMentor: false,
      user: { id: cast.accepted.user?.id, username: cast.accepted.user?.username },
    })
  })

  it('answers 401 anonymously and 404 for a hidden topic', async () => {
    const mentor = await server.signIn(unique('fb-mentor'))
    const reader = await server.signIn(unique('fb-reader'))
    const proposed = await mentor.post('/api/topics', {
      subject: 'Hidden',
      maxMentees: 1,
      seniorityRequired: ['senior'],
    })
    expectProblem(await reader.get(`/api/topics/${proposed.body.id}/feedback`), 404)
    expectProblem(await server.anonymous().get(`/api/topics/${concluded.topicId}/feedback`), 401)
  })
})
