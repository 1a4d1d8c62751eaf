import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pushResponseSchema } from '../../shared/sync.ts'
import { emptyReplica, pullToEnd, settled } from '../sync/testing.ts'
import { approvedTopic, createTopic, expectProblem, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'dismissals-admin')
})
afterAll(async () => {
  await server?.stop()
})

describe('POST /api/topics/{id}/dismissal', () => {
  it('marks a topic "Not interested" (no body), takes it back, and lists only the caller’s marks', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const me = await server.signIn(unique('me'))
    const other = await server.signIn(unique('other'))
    const topic = await approvedTopic(admin, mentor)

    const marked = await me.post(`/api/topics/${topic.id}/dismissal`)
    expect(marked.status, marked.text).toBe(200)
    expect(marked.body).toEqual({
      topicId: topic.id,
      dismissed: true,
      updatedAt: expect.any(String),
    })

    const back = await me.post(`/api/topics/${topic.id}/dismissal`, { dismissed: false })
    expect(back.status).toBe(200)
    expect(back.body).toMatchObject({ topicId: topic.id, dismissed: false })

    expect((await me.get('/api/dismissals')).body).toEqual([back.body])
    expect((await other.get('/api/dismissals')).body).toEqual([])
  })

  it('answers 404 for a topic the caller cannot see, 400 for a body that is not a boolean', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const me = await server.signIn(unique('me'))
    const proposed = await createTopic(mentor)
    expectProblem(await me.post(`/api/topics/${proposed.id}/dismissal`), 404, /Topic not found/)
    expectProblem(await me.post(`/api/topics/${randomUUID()}/dismissal`), 404, /Topic not found/)
    const topic = await approvedTopic(admin, mentor)
    const res = await me.post(`/api/topics/${topic.id}/dismissal`, { dismissed: 'yes' })
    expectProblem(res, 400)
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: 'dismissed' }))
  })

  it('round-trips through /api/sync/push, replayed once, and reaches the caller’s pull only', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const me = await server.signIn(unique('me'))
    const other = await server.signIn(unique('other'))
    const topic = await approvedTopic(admin, mentor)
    const mine = emptyReplica()
    const theirs = emptyReplica()
    await settled(server.sql)
    await pullToEnd(me, mine)
    await pullToEnd(other, theirs)

    const mutation = {
      id: randomUUID(),
      method: 'POST' as const,
      path: `/api/topics/${topic.id}/dismissal`,
      body: { dismissed: true },
    }
    const results = []
    for (let i = 0; i < 2; i += 1) {
      const res = await me.post('/api/sync/push', { clientId: 'phone', mutations: [mutation] })
      expect(res.status, res.text).toBe(200)
      results.push(...pushResponseSchema.parse(res.body).results)
    }
    expect(results.map((r) => r.status)).toEqual([200, 200])
    expect(results[1]?.body).toEqual(results[0]?.body)

    await settled(server.sql)
    const pages = await pullToEnd(me, mine)
    expect(pages.flatMap((p) => p.changes.dismissals)).toEqual([
      {
        topicId: topic.id,
        dismissed: true,
        updatedAt: expect.any(String),
        version: expect.any(Number),
      },
    ])
    expect(mine.tables.dismissals[topic.id]).toMatchObject({ dismissed: true })
    await pullToEnd(other, theirs)
    expect(theirs.tables.dismissals).toEqual({})
  })
})
