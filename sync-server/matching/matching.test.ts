import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerDaysBucket } from '../../shared/matching.ts'
import { approvedTopic, createTopic, expectProblem, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'matching-admin')
})
afterAll(async () => {
  await server?.stop()
})

/** A signed-in person with these interests (and looking for a mentor when `looking`). */
async function person(prefix: string, interests: string[], looking = false): Promise<Client> {
  const name = unique(prefix)
  const client = await server.signIn(name)
  const res = await client.patch(`/api/users/${name}`, {
    interests,
    seniority: 'junior',
    lookingForMentor: looking,
  })
  expect(res.status, res.text).toBe(200)
  return client
}

describe('GET /api/recommendations', () => {
  it('recommends open topics that share an interest, best first, with a score and reasons', async () => {
    const interest = unique('Compilers')
    const other = unique('Gardening')
    const mentor = await person('rec-mentor', [])
    const me = await person('rec-me', [interest])
    const fits = await approvedTopic(admin, mentor, { interests: [interest] })
    const unrelated = await approvedTopic(admin, mentor, { interests: [other] })

    const res = await me.get('/api/recommendations')

    expect(res.status, res.text).toBe(200)
    const ids = res.body.map((r: { topic: { id: string } }) => r.topic.id)
    expect(ids).toContain(fits.id)
    expect(ids).not.toContain(unrelated.id)
    const mine = res.body.find((r: { topic: { id: string } }) => r.topic.id === fits.id)
    expect(mine.score).toBeGreaterThan(0)
    expect(mine.score).toBeLessThanOrEqual(1)
    expect(mine.reasons.length).toBeGreaterThan(0)
    expect(mine.topic).toEqual((await me.get(`/api/topics/${fits.id}`)).body)
    expect(Object.keys(mine).sort()).toEqual(['reasons', 'score', 'topic'])
  })

  it('leaves out topics the caller dismissed or applied to, and takes a dismissal back', async () => {
    const interest = unique('Databases')
    const mentor = await person('rec-mentor', [])
    const me = await person('rec-me', [interest])
    const dismissed = await approvedTopic(admin, mentor, { interests: [interest] })
    const applied = await approvedTopic(admin, mentor, { interests: [interest] })
    const kept = await approvedTopic(admin, mentor, { interests: [interest] })
    expect((await me.post(`/api/topics/${dismissed.id}/dismissal`)).status).toBe(200)
    expect((await me.post(`/api/topics/${applied.id}/apply`)).status).toBe(201)

    const ids = async () =>
      (await me.get('/api/recommendations')).body.map((r: { topic: { id: string } }) => r.topic.id)
    expect(await ids()).toEqual([kept.id])

    await me.post(`/api/topics/${dismissed.id}/dismissal`, { dismissed: false })
    expect((await ids()).sort()).toEqual([dismissed.id, kept.id].sort())
  })

  it('answers an empty list while the profile has no interests', async () => {
    const me = await person('rec-empty', [])
    const res = await me.get('/api/recommendations')
    expect(res.status).toBe(200)
    expect(res.body).toEqual([])
  })

  it('takes limit from 1 to 50 and refuses anything else with 400', async () => {
    const interest = unique('Testing')
    const mentor = await person('rec-mentor', [])
    const me = await person('rec-me', [interest])
    await approvedTopic(admin, mentor, { interests: [interest] })
    await approvedTopic(admin, mentor, { interests: [interest] })
    expect((await me.get('/api/recommendations?limit=1')).body).toHaveLength(1)
    for (const limit of ['0', '51', 'many', '1.5']) {
      const res = await me.get(`/api/recommendations?limit=${limit}`)
      expectProblem(res, 400)
      expect(res.body.errors).toContainEqual(expect.objectContaining({ path: 'limit' }))
    }
    expectProblem(await server.anonymous().get('/api/recommendations'), 401)
  })
})

describe('GET /api/topics/{id}/candidates', () => {
  it('shows the mentor people looking for a mentor who fit, with any invitation sent', async () => {
    const interest = unique('Kotlin')
    const mentor = await person('cand-mentor', [])
    const looking = await person('cand-looking', [interest], true)
    const notLooking = await person('cand-not-looking', [interest], false)
    const applicant = await person('cand-applicant', [interest], true)
    const topic = await approvedTopic(admin, mentor, { interests: [interest] })
    expect((await applicant.post(`/api/topics/${topic.id}/apply`)).status).toBe(201)

    const before = await mentor.get(`/api/topics/${topic.id}/candidates`)
    expect(before.status, before.text).toBe(200)
    const mine = before.body.find((c: { user: { id: string } }) => c.user.id === looking.user?.id)
    expect(mine).toMatchObject({
      user: { id: looking.user?.id, lookingForMentor: true, hasMentor: false },
      score: expect.any(Number),
      invitation: null,
    })
    expect(mine.reasons).toContain('No mentor yet')
    const ids = before.body.map((c: { user: { id: string } }) => c.user.id)
    expect(ids).not.toContain(notLooking.user?.id)
    expect(ids).not.toContain(applicant.user?.id)
    expect(ids).not.toContain(mentor.user?.id)

    const invited = await mentor.post(`/api/topics/${topic.id}/invitations`, {
      menteeId: looking.user?.id,
    })
    expect(invited.status).toBe(201)
    const after = await mentor.get(`/api/topics/${topic.id}/candidates?limit=50`)
    expect(
      after.body.find((c: { user: { id: string } }) => c.user.id === looking.user?.id)?.invitation,
    ).toBe('open')
    // Administrators may look too.
    expect((await admin.get(`/api/topics/${topic.id}/candidates`)).status).toBe(200)
  })

  it('answers 403 to others who can see the topic and 404 when they cannot', async () => {
    const mentor = await person('cand-mentor', [])
    const other = await person('cand-other', [])
    const approved = await approvedTopic(admin, mentor)
    const proposed = await createTopic(mentor)
    expectProblem(
      await other.get(`/api/topics/${approved.id}/candidates`),
      403,
      /Only the mentor of this topic or an administrator/,
    )
    expectProblem(await other.get(`/api/topics/${proposed.id}/candidates`), 404, /Topic not found/)
    expectProblem(await other.get(`/api/topics/${randomUUID()}/candidates`), 404)
    expect((await mentor.get(`/api/topics/${proposed.id}/candidates`)).status).toBe(200)
    expectProblem(await mentor.get(`/api/topics/${approved.id}/candidates?limit=51`), 400)
  })
})

describe('answer_days_bucket (sql/0008_matching.sql)', () => {
  it('gives what shared answerDaysBucket gives, for every hour of the first 40 days and beyond', async () => {
    const hours = [null, -5, 0, 0.001, 0.5, 23.99, 24, 24.01]
    for (let h = 1; h <= 40 * 24; h += 1) hours.push(h, h + 0.5)
    hours.push(1_000, 10_000, 1e7)
    const rows = await server.sql<{ hours: number | null; days: number | null }[]>`
      SELECT h AS hours, answer_days_bucket(h)::int AS days
      FROM unnest(${server.sql.array(hours.map((h) => (h === null ? null : String(h))))}::float8[]) AS h`
    expect(rows).toHaveLength(hours.length)
    const wrong = rows.filter((r) => r.days !== answerDaysBucket(r.hours))
    expect(wrong).toEqual([])
  })
})
