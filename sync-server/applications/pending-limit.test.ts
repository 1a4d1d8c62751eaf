import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pendingLimitMessage } from '../../shared/application.ts'
import { approvedTopic, expectProblem, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

// The programme's optional limit on a mentee's pending applications (issue 18).

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'limit-admin')
})
afterAll(async () => {
  await server?.stop()
})

async function setLimit(limit: number | null): Promise<void> {
  const res = await admin.patch('/api/admin/settings', { pendingApplicationLimit: limit })
  expect(res.status, res.text).toBe(200)
}

async function openTopics(count: number): Promise<string[]> {
  const mentor = await server.signIn(unique('limit-mentor'))
  const ids: string[] = []
  for (let i = 0; i < count; i++) ids.push((await approvedTopic(admin, mentor)).id)
  return ids
}

async function pendingCount(menteeId: string): Promise<number> {
  const [row] = await server.sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM applications WHERE mentee_id = ${menteeId} AND status = 'pending'`
  return row?.count ?? -1
}

describe('POST /api/topics/{id}/apply with a limit on pending applications', () => {
  it('refuses the application past the limit with 409, and allows it again once one is answered', async () => {
    await setLimit(1)
    const [first = '', second = ''] = await openTopics(2)
    const mentee = await server.signIn(unique('limit-mentee'))

    expect((await mentee.post(`/api/topics/${first}/apply`)).status).toBe(201)
    const refused = await mentee.post(`/api/topics/${second}/apply`)
    expectProblem(refused, 409)
    expect(refused.body.detail).toBe(pendingLimitMessage(1))

    await server.sql`UPDATE applications SET status = 'rejected', rejection_reason = 'No room'
      WHERE mentee_id = ${mentee.user?.id ?? ''}`
    expect((await mentee.post(`/api/topics/${second}/apply`)).status).toBe(201)
  })

  it('lets exactly 2 of 8 simultaneous applies by one mentee through with a limit of 2', async () => {
    await setLimit(2)
    const topics = await openTopics(8)
    const mentee = await server.signIn(unique('limit-racer'))

    const answers = await Promise.all(topics.map((id) => mentee.post(`/api/topics/${id}/apply`)))

    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409, 409, 409])
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body.detail).toBe(pendingLimitMessage(2))
    }
    expect(await pendingCount(mentee.user?.id ?? '')).toBe(2)
  })

  it('has no limit when it is off', async () => {
    await setLimit(null)
    const topics = await openTopics(4)
    const mentee = await server.signIn(unique('limit-free'))
    const answers = await Promise.all(topics.map((id) => mentee.post(`/api/topics/${id}/apply`)))
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201])
  })
})
