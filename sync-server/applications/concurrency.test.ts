import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'race-admin')
})
afterAll(async () => {
  await server?.stop()
})

/** Eight mentees apply one after another; answers the application ids. */
async function eightApplications(topicId: string): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < 8; i++) {
    const mentee = await server.signIn(unique('racer'))
    const res = await mentee.post(`/api/topics/${topicId}/apply`)
    expect(res.status, res.text).toBe(201)
    ids.push(res.body.id)
  }
  return ids
}

async function acceptedCount(topicId: string): Promise<number> {
  const [row] = await server.sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM applications WHERE topic_id = ${topicId} AND status = 'accepted'`
  return row?.count ?? -1
}

describe('PATCH /api/applications/{id} under concurrent accepts', () => {
  it.each([2, 1])('accepts exactly maxMentees=%i of eight simultaneous accepts', async (max) => {
    const mentor = await server.signIn(unique('race-mentor'))
    const { id: topicId } = await approvedTopic(admin, mentor, {
      subject: unique('Race topic'),
      maxMentees: max,
    })
    const applicationIds = await eightApplications(topicId)

    const answers = await Promise.all(
      applicationIds.map((id) => mentor.patch(`/api/applications/${id}`, { status: 'accepted' })),
    )

    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(max)
    expect(statuses.filter((s) => s === 409)).toHaveLength(8 - max)
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.headers.get('content-type')).toMatch(/problem\+json/)
      expect(refused.body.detail).toMatch(/full/)
    }
    const topic = await mentor.get(`/api/topics/${topicId}`)
    expect(topic.body.currentMentees).toBe(max)
    expect(await acceptedCount(topicId)).toBe(max)
    const listed = await mentor.get(`/api/topics/${topicId}/applications`)
    expect(
      listed.body
        .filter((a: { status: string }) => a.status === 'accepted')
        .map((a: { id: string }) => a.id)
        .sort(),
    ).toEqual(
      answers
        .filter((a) => a.status === 200)
        .map((a) => a.body.id)
        .sort(),
    )
  })

  it('keeps the count right when accepts and rejects race on one topic', async () => {
    const mentor = await server.signIn(unique('race-mentor'))
    const { id: topicId } = await approvedTopic(admin, mentor, {
      subject: unique('Race topic'),
      maxMentees: 2,
    })
    const applicationIds = await eightApplications(topicId)

    const answers = await Promise.all(
      applicationIds.map((id, i) =>
        mentor.patch(
          `/api/applications/${id}`,
          i % 2 === 0 ? { status: 'accepted' } : { status: 'rejected', rejectionReason: 'No room' },
        ),
      ),
    )

    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true)
    expect(answers.filter((a, i) => i % 2 === 1 && a.status === 200)).toHaveLength(4)
    expect(answers.filter((a, i) => i % 2 === 0 && a.status === 200)).toHaveLength(2)
    expect((await mentor.get(`/api/topics/${topicId}`)).body.currentMentees).toBe(2)
    expect(await acceptedCount(topicId)).toBe(2)
  })
})

describe('POST /api/topics/{id}/apply under concurrent applies', () => {
  it('creates exactly one application when one mentee applies five times at once', async () => {
    const mentor = await server.signIn(unique('race-mentor'))
    const mentee = await server.signIn(unique('eager'))
    const { id: topicId } = await approvedTopic(admin, mentor, {
      subject: unique('Race topic'),
      maxMentees: 2,
    })

    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        mentee.post(`/api/topics/${topicId}/apply`, undefined, {
          headers: { 'Idempotency-Key': `apply-${topicId}-${i}` },
        }),
      ),
    )

    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([201, 409, 409, 409, 409])
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body.detail).toMatch(/already applied/)
    }
    const [row] = await server.sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM applications WHERE topic_id = ${topicId}`
    expect(row?.count).toBe(1)
    const notes = await mentor.get('/api/notifications')
    expect(notes.body.filter((n: { kind: string }) => n.kind === 'new_application')).toHaveLength(1)
  })
})
